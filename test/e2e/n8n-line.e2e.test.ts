import { randomUUID } from 'node:crypto';

import { finishedExecution, nodeOutput } from '../../tooling/host/executions';
import { connect, type Session } from '../../tooling/host/session';
import { chain, node } from '../../tooling/host/workflows';

describe('the n8n under test', () => {
	let session: Session;
	beforeAll(async () => {
		session = await connect();
	});

	test('is the version this run installed (N8N_VERSION)', async () => {
		const settings = await session.n8n.rest<{ versionCli: string }>('GET', '/rest/settings');

		expect(settings.versionCli).toBe(session.ctx.n8nVersion);
	});

	// n8n 1.123.81's default expression engine fails this (null for both); the 1.x line runs the legacy one.
	test("resolves $('Node').item and .first() in a workflow of n8n's own nodes", async () => {
		const assignment = (name: string, value: string) => ({ id: randomUUID(), name, value, type: 'string' });
		const workflow = chain(`e2e expressions ${Date.now()}`, [
			node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
			node('Rows', 'n8n-nodes-base.code', 2, { jsCode: "return [{ x: 'a' }, { x: 'b' }];" }),
			node('Pass', 'n8n-nodes-base.noOp', 1, {}),
			node('Read', 'n8n-nodes-base.set', 3.4, {
				mode: 'manual',
				assignments: { assignments: [assignment('item', "={{ $('Rows').item.json.x }}"), assignment('first', "={{ $('Rows').first().json.x }}")] },
				options: {},
			}),
		]);
		const saved = await session.n8n.createWorkflow(workflow);

		const execution = await finishedExecution(session.n8n, await session.n8n.runManually(saved.id, 'Start'));

		expect(nodeOutput(execution, 'Read')).toEqual([
			{ item: 'a', first: 'a' },
			{ item: 'b', first: 'a' },
		]);
	});
});
