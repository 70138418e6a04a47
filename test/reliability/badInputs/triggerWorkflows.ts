import { createHmac } from 'node:crypto';

import { erpTriggerType, triggerUrl } from '../../../tooling/host/examples';
import { erpTriggerNode } from '../../../tooling/host/workflows';
import type { Execution, SavedWorkflow } from '../../../tooling/host/types';
import { atLeast, waitForExecutions } from '../../../tooling/host/executions';
import type { ReliabilitySession } from '../setup/context';

export type TriggerKind = 'plain' | 'hmac' | 'shared';

export interface TriggerWorkflow {
	kind: TriggerKind;
	workflow: SavedWorkflow;
	url: string;
}

export const SECRET_HEADER = 'X-Erp-Webhook-Secret';

const PARAMETERS: Record<TriggerKind, Record<string, unknown>> = {
	plain: { events: ['contact.created'] },
	hmac: { events: ['*'], verification: 'hmacSha256' },
	shared: { events: ['*'], verification: 'sharedSecret', sharedHeader: SECRET_HEADER },
};

/** An active workflow of one ERP Trigger: unverified (contact.created only), HMAC-signed, or with a shared secret. */
export async function triggerWorkflow(session: ReliabilitySession, kind: TriggerKind): Promise<TriggerWorkflow> {
	const node = erpTriggerNode(PARAMETERS[kind], kind === 'plain' ? undefined : session.ctx.credentials.webhook);
	const workflow = await session.n8n.createActiveWorkflow({ name: `reliability trigger (${kind})`, nodes: [node], connections: {} });
	return { kind, workflow, url: triggerUrl(session.ctx.n8nUrl, node, await erpTriggerType(session.n8n)) };
}

export const hmacHex = (secret: string, body: string | Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** A delivery as the ERP sends it; `marker` goes into its data so that a run it started can be found. */
export function deliveryBody(marker: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return { event: 'contact.created', timestamp: new Date().toISOString(), data: { id: 1, first_name: 'Ada', marker }, ...overrides };
}

/** Headers that pass the trigger's check, for a delivery of `body`. */
export function validHeaders(trigger: TriggerWorkflow, secret: string, body: string): Record<string, string> {
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	if (trigger.kind === 'hmac') headers['x-erp-signature'] = hmacHex(secret, body);
	if (trigger.kind === 'shared') headers[SECRET_HEADER.toLowerCase()] = secret;
	return headers;
}

const SENTINEL = 'sentinel-delivery';

/**
 * Sends one valid delivery and waits until its run is saved: the trigger answered every earlier request
 * before it, so any run one of them started is saved too. Returns all runs of the workflow, with their data.
 */
export async function runsAfterSentinel(session: ReliabilitySession, trigger: TriggerWorkflow): Promise<Execution[]> {
	const body = JSON.stringify(deliveryBody(SENTINEL));
	const response = await fetch(trigger.url, { method: 'POST', headers: validHeaders(trigger, session.ctx.webhookSecret, body), body });
	if (response.status !== 200) throw new Error(`the ${trigger.kind} trigger refused a valid delivery: ${response.status} ${await response.text()}`);
	return await waitForExecutions(session.n8n, trigger.workflow.id, atLeast(1, (run) => JSON.stringify(run.data).includes(SENTINEL)), 60_000);
}

/** Runs that neither the sentinel nor any of the given markers started. */
export const unattributedRuns = (runs: Execution[], markers: string[]) =>
	runs.filter((run) => ![SENTINEL, ...markers].some((marker) => JSON.stringify(run.data).includes(marker))).length;
