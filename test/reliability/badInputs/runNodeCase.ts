import { N8nRequestError } from '../../../tooling/host/restClient';
import type { Credential, Execution } from '../../../tooling/host/types';
import { waitForExecutions } from '../../../tooling/host/executions';
import { calls, runErp } from '../../../tooling/host/runErp';
import type { BadInputResult } from '../report/results';
import { CRASH_ERROR_NAMES, looksLikeCrash } from '../support/crash';
import type { ReliabilitySession } from '../setup/context';
import { changedRecords, snapshot } from '../support/snapshot';
import type { NodeCase } from './nodeCase';
import { runManually } from './runManually';

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
