import { randomBytes, randomUUID } from 'node:crypto';

import type { Credential, Execution, WorkflowNode } from '../../../tooling/host/types';
import { finishedExecution, waitForExecutions } from '../../../tooling/host/executions';
import { chain, erpNode } from '../../../tooling/host/workflows';
import type { ReliabilitySession } from '../setup/context';
import { N8nRequestError } from '../../../tooling/host/restClient';
import { calls, runErp } from '../../../tooling/host/runErp';
import type { BadInputResult } from '../report/results';
import { changedRecords, CRASH_ERROR_NAMES, looksLikeCrash, snapshot } from '../support/batch';
import { type NodeCase, runsAfterSentinel, type TriggerCase, type TriggerKind, triggerWorkflow, type TriggerWorkflow, unattributedRuns } from './cases';

/**
 * What the editor's "Execute workflow" does with Manual Trigger → ERP: the path left when n8n refuses to
 * publish a workflow whose parameters it finds invalid itself. Returns the execution and the API requests.
 */
export async function runManually(
	session: ReliabilitySession,
	parameters: Record<string, unknown>,
	credential: Credential,
): Promise<{ execution: Execution; requests: string[] }> {
	const start: WorkflowNode = { id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
	const workflow = await session.n8n.createWorkflow(chain('reliability manual run', [start, erpNode(parameters, credential)]));
	const since = await session.sandbox.lastRequestSeq();
	const execution = await finishedExecution(session.n8n, await session.n8n.runManually(workflow.id, start.name));
	const requests = (await session.sandbox.requests(since)).map((r) => `${r.method} ${r.path} ${r.status}`);
	return { execution, requests };
}

interface Outcome {
	execution?: Execution;
	requests: string[];
	/** n8n's answer when it refused to publish the workflow (it checks parameters itself). */
	publishRefused?: string;
}

async function credentialFor(session: ReliabilitySession, c: NodeCase): Promise<Credential> {
	const { ctx } = session;
	if (c.credential === undefined) return ctx.credentials.good;
	if (typeof c.credential === 'string') return ctx.credentials[c.credential];
	const baseUrl = await c.credential.baseUrl(ctx.sandboxUrl);
	return await session.n8n.createCredential(`ERP API (${c.id})`, 'erpApi', { baseUrl, apiToken: ctx.token });
}

/**
 * Runs the case in production (an active Webhook → ERP workflow). When n8n refuses to publish it, runs it the
 * way the editor does instead, which is what a user then sees.
 */
async function run(session: ReliabilitySession, c: NodeCase, credential: Credential, input: Record<string, unknown>): Promise<Outcome> {
	try {
		const production = await runErp(session, c.parameters, { input, credential });
		const [execution] = await waitForExecutions(session.n8n, production.workflowId);
		return { execution, requests: calls(production) };
	} catch (error) {
		if (!(error instanceof N8nRequestError && error.path.endsWith('/activate') && error.status === 400)) throw error;
		const manual = await runManually(session, c.parameters, credential);
		return { ...manual, publishRefused: (JSON.parse(error.body) as { message: string }).message };
	}
}

/** The node's error as n8n recorded it: on the node's run, else on the execution. */
function errorOf(execution: Execution | undefined): { name?: string; message: string; description?: string } {
	const run = execution?.data?.resultData.runData.ERP?.[0]?.error;
	const error = run ?? execution?.data?.resultData.error;
	return { name: run?.name, message: error?.message ?? '', description: error?.description ?? undefined };
}

const n8nHealthy = (session: ReliabilitySession) => fetch(`${session.ctx.n8nUrl}/healthz`).then((r) => r.ok, () => false);

/**
 * Runs a hostile configuration in a real workflow and judges the answer mechanically: the execution failed
 * with an error whose message and description name the field and the fix, exactly the expected requests
 * reached the ERP, no record changed, and nothing crashed.
 */
export async function runNodeCase(session: ReliabilitySession, c: NodeCase): Promise<BadInputResult> {
	const credential = await credentialFor(session, c);
	const input = (await c.prepare?.(session)) ?? c.data ?? {};
	const before = await snapshot(session.sandbox);
	const { execution, requests, publishRefused } = await run(session, c, credential, input);
	const recordsChanged = changedRecords(before, await snapshot(session.sandbox));
	const error = errorOf(execution);
	const shown = `${error.message} ${error.description ?? ''}`;

	const crash =
		execution?.status === 'crashed' ||
		CRASH_ERROR_NAMES.includes(error.name ?? '') ||
		looksLikeCrash(shown) ||
		!(await n8nHealthy(session));
	const failures: string[] = [];
	if (execution?.status !== 'error') failures.push(`the execution ended "${execution?.status ?? 'never'}", not "error"`);
	if (!c.expect.field.test(shown)) failures.push('the error does not name the field');
	if (!c.expect.fix.test(shown)) failures.push('the error does not say how to fix it');
	if (JSON.stringify(requests) !== JSON.stringify(c.expect.requests)) failures.push(`the ERP received ${JSON.stringify(requests)}`);
	if (recordsChanged > 0) failures.push(`${recordsChanged} records changed`);
	if (crash) failures.push('crash');
	return {
		id: c.id,
		area: 'node',
		title: c.title,
		input: JSON.stringify({ parameters: c.parameters, ...(Object.keys(input).length ? { data: input } : {}) }),
		expected: { field: c.expect.field.source, fix: c.expect.fix.source, requests: c.expect.requests },
		actual: {
			message: error.message,
			description: error.description,
			executionStatus: execution?.status,
			...(publishRefused ? { publishRefused, ranAs: 'manual run in the editor' } : { ranAs: 'active workflow' }),
			requests,
			recordsChanged,
		},
		clear: failures.length === 0,
		crash,
		failures,
	};
}

interface Answer {
	status: number;
	message: string;
}

/** Sends the request; the answer's `message` when it is JSON, else its text. A broken connection counts as status 0. */
async function send(trigger: TriggerWorkflow, c: TriggerCase, marker: string, secret: string): Promise<Answer> {
	const { method, headers, body } = c.request(marker, secret);
	try {
		const response = await fetch(trigger.url, { method, headers, body });
		const text = await response.text();
		let message = text;
		try {
			const parsed = JSON.parse(text) as { message?: unknown; hint?: unknown };
			message = [parsed.message, parsed.hint].filter((part) => typeof part === 'string').join(' ') || text;
		} catch {
			// not JSON: the text is the message
		}
		return { status: response.status, message };
	} catch (error) {
		return { status: 0, message: `no answer: ${(error as Error).message}` };
	}
}

function judge(c: TriggerCase, answer: Answer, started: boolean, input: string): BadInputResult {
	const crash = answer.status === 0 || answer.status >= 500 || looksLikeCrash(answer.message);
	const failures: string[] = [];
	if (answer.status !== c.expect.status) failures.push(`answered ${answer.status}, not ${c.expect.status}`);
	if (!c.expect.field.test(answer.message)) failures.push('the answer does not name the field');
	if (c.expect.fix && !c.expect.fix.test(answer.message)) failures.push('the answer does not say how to fix it');
	const mustStart = c.expect.started === true;
	if (started !== mustStart) failures.push(mustStart ? 'no workflow run started' : 'a workflow run started');
	if (crash) failures.push('crash');
	return {
		id: c.id,
		area: 'trigger',
		title: c.title,
		input,
		answeredBy: c.answeredBy ?? 'ERP Trigger',
		expected: {
			field: c.expect.field.source,
			fix: c.expect.fix?.source ?? null,
			httpStatus: c.expect.status,
		},
		actual: { message: answer.message, httpStatus: answer.status, started },
		clear: failures.length === 0,
		crash,
		failures,
	};
}

/** What a case sent, for the report: method, content type, headers' names and the body's start and size. */
function describeRequest(c: TriggerCase, marker: string, secret: string): string {
	const { method, headers, body = '' } = c.request(marker, secret);
	const shown = body.length > 200 ? `${body.slice(0, 120)}… (${body.length} bytes)` : body;
	return `${method} to the ${c.trigger} trigger, headers ${JSON.stringify(Object.keys(headers))}, body ${JSON.stringify(shown)}`;
}

/**
 * Sends every case to its trigger (one active workflow per kind), then one valid delivery per trigger; once
 * that one's run is saved, every run the cases could have started is too. A case started a run when its
 * marker shows in one.
 */
export async function runTriggerCases(session: ReliabilitySession, cases: TriggerCase[]): Promise<BadInputResult[]> {
	const kinds = [...new Set(cases.map((c) => c.trigger))];
	const triggers = new Map<TriggerKind, TriggerWorkflow>();
	for (const kind of kinds) triggers.set(kind, await triggerWorkflow(session, kind));
	const secret = session.ctx.webhookSecret;

	const sent = [];
	for (const c of cases) {
		const marker = `case-${c.id}-${randomBytes(6).toString('hex')}`;
		sent.push({ c, marker, answer: await send(triggers.get(c.trigger) as TriggerWorkflow, c, marker, secret) });
	}
	const runs = new Map<TriggerKind, string[]>();
	const strays = new Map<TriggerKind, number>();
	for (const [kind, trigger] of triggers) {
		const all = await runsAfterSentinel(session, trigger);
		runs.set(kind, all.map((run) => JSON.stringify(run.data)));
		strays.set(kind, unattributedRuns(all, sent.map((s) => s.marker)));
	}
	return sent.map(({ c, marker, answer }) => {
		const ownRun = (runs.get(c.trigger) ?? []).some((data) => data.includes(marker));
		// A run no marker explains may be this case's: it fails every case of its trigger that must start none.
		const started = c.expect.started ? ownRun : ownRun || (strays.get(c.trigger) ?? 0) > 0;
		return judge(c, answer, started, describeRequest(c, marker, '<the secret>'));
	});
}
