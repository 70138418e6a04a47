import { atLeast, executionsAtRest, finishedExecution, nodeOutput, waitForExecutions } from '../../../tooling/host/executions';
import { N8nClient } from '../../../tooling/host/restClient';
import { API_KEY, ScriptedExecutionsApi, type ScriptedExecution } from './scriptedExecutionsApi';

// How the test host waits for n8n, counted in the requests it sends: waiting must not make n8n serve data it does
// not need (issue 45: a self-calling workflow made each wait read every month's sub-execution again and again).
const SUBS = 5;

/** A manual run (id 1) of a workflow that calls itself SUBS times, one sub-execution after the other. */
const selfCalling: ScriptedExecution[] = [
	{ id: '1', startsAt: 0, endsAt: 3 * SUBS + 2 },
	...Array.from({ length: SUBS }, (_, i) => ({ id: String(i + 2), startsAt: 3 * i + 1, endsAt: 3 * i + 3 })),
];

/** An active workflow that runs SUBS times, one run after the other, each finished before the next starts. */
const oneAfterTheOther: ScriptedExecution[] = Array.from({ length: SUBS }, (_, i) => ({ id: String(i + 1), startsAt: 3 * i, endsAt: 3 * i + 1 }));

async function against<T>(script: ScriptedExecution[], wait: (n8n: N8nClient) => Promise<T>) {
	const api = new ScriptedExecutionsApi('wf1', script);
	try {
		const result = await wait(new N8nClient(await api.start(), API_KEY));
		return { api, result };
	} finally {
		await api.stop();
	}
}

describe("the test host's wait for executions", () => {
	it('waits for one execution while its sub-executions run, reading its data once and no other execution', async () => {
		const { api, result } = await against(selfCalling, (n8n) => finishedExecution(n8n, '1'));

		expect(api.withData).toEqual(['/api/v1/executions/1?includeData=true']);
		expect(api.dataServed).toEqual(['1']);
		expect(nodeOutput(result, 'Done')).toEqual([{ execution: '1' }]);
		// It saw the sub-executions come and go: the run was still going on while it polled.
		expect(api.urls.length).toBeGreaterThan(3 * SUBS);
	});

	it('reads the one execution again while n8n 1.x has saved its status but not yet its data', async () => {
		const savedLate = selfCalling.map((execution) => (execution.id === '1' ? { ...execution, savedAt: execution.endsAt + 2 } : execution));
		const { api, result } = await against(savedLate, (n8n) => finishedExecution(n8n, '1'));

		expect(new Set(api.dataServed)).toEqual(new Set(['1']));
		expect(nodeOutput(result, 'Done')).toEqual([{ execution: '1' }]);
	});

	it("waits for a workflow's executions reading each one's data once, however often its list grows", async () => {
		const { api, result } = await against(oneAfterTheOther, (n8n) => waitForExecutions(n8n, 'wf1', atLeast(SUBS)));

		const ids = oneAfterTheOther.map((execution) => execution.id);
		expect(api.dataServed.sort()).toEqual(ids.sort());
		expect(api.withData.every((url) => /^\/api\/v1\/executions\/\d+\?includeData=true$/.test(url))).toBe(true);
		expect(result.map((execution) => execution.id)).toEqual(oneAfterTheOther.map((execution) => execution.id));
	});

	it('waits for every execution of a self-calling workflow reading each one\'s data once', async () => {
		const { api, result } = await against(selfCalling, (n8n) => waitForExecutions(n8n, 'wf1', atLeast(SUBS + 1)));

		expect(api.dataServed.sort()).toEqual(selfCalling.map((execution) => execution.id).sort());
		expect(result).toHaveLength(SUBS + 1);
	});

	it('waits for executions to come to rest, listing them without data, then reads each one\'s data once', async () => {
		// At least one awaited: all six come, the manual run and its sub-executions.
		const { api, result } = await against(selfCalling, (n8n) => executionsAtRest(n8n, 'wf1', 1, 0));

		expect(api.withData).toEqual(['/api/v1/executions?workflowId=wf1&includeData=true&limit=100']);
		expect(api.dataServed.sort()).toEqual(selfCalling.map((execution) => execution.id).sort());
		expect(result.map((execution) => execution.status)).toEqual(Array(SUBS + 1).fill('success'));
	});

	it('throws, saying what it saw, when fewer executions come than the least awaited', async () => {
		const waiting = against(oneAfterTheOther, (n8n) => executionsAtRest(n8n, 'wf1', SUBS + 1, 0, 200));

		await expect(waiting).rejects.toThrow(`workflow wf1: not at least ${SUBS + 1} executions, all finished and holding still, within 0.2 s; saw ${SUBS}: 1 success, 2 success`);
	});
});
