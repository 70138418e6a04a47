import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { finishedExecution, nodeOutput, waitForExecutions } from '../../tooling/host/executions';
import { chain, ERP_NODE_TYPE, node } from '../../tooling/host/workflows';
import type { Contact } from '../../sandbox/types';
import { useCredential } from '../../tooling/host/examples';
import type { Execution, WorkflowDefinition } from '../../tooling/host/types';
import { useSession } from './setup/session';

const session = useSession();

describe('the n8n under test', () => {
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

/** A workflow as n8n-nodes-erp 0.1.0 saved it: its ERP nodes at version 1 (a create, an update, a delete). */
const SAVED_BY_0_1_0 = JSON.parse(readFileSync(path.join(__dirname, 'workflows/erp-node-0.1.0.json'), 'utf8')) as WorkflowDefinition;

const UPDATED_AT = '2026-11-02T00:00:00.000Z';

/**
 * An update answered with part of the record and a delete answered with the removed contact (the ERP of the
 * soft-delete variant): the API document shows neither answer, and these are where version 1 and 1.1 differ.
 */
describe('the ERP node\'s versions inside a real n8n: a workflow saved with 0.1.0 keeps its outputs', () => {
	afterEach(async () => await session.sandbox.resetVariants());

	/** The saved workflow, its ERP nodes at `typeVersion`, published; the paths of its webhooks by their names. */
	async function publish(typeVersion: number) {
		const run = randomUUID().slice(0, 8);
		const workflow = useCredential(structuredClone(SAVED_BY_0_1_0), session.ctx.credentials.good);
		const paths: Record<string, string> = {};
		for (const node of workflow.nodes) {
			if (node.type === ERP_NODE_TYPE) node.typeVersion = typeVersion;
			if (node.webhookId) {
				node.webhookId = randomUUID();
				node.parameters.path = paths[node.name] = `${String(node.parameters.path)}-${run}`;
			}
		}
		const saved = await session.n8n.createActiveWorkflow({ ...workflow, name: `e2e ${workflow.name} at ${typeVersion} ${run}` });
		return { saved, paths };
	}

	/** Calls one of the workflow's webhooks; the ERP requests the run made. */
	async function call(webhookPath: string, body: Record<string, unknown>) {
		const since = await session.sandbox.lastRequestSeq();
		const response = await session.n8n.callWebhook(webhookPath, body);
		expect(response.status).toBe(200);
		return await session.sandbox.requests(since);
	}

	const stored = async (email: string) => (await session.sandbox.records('contacts')).find((c) => c.email === email) as Contact;

	/** A contact created, updated (the ERP answers with part of it), deleted (it answers with the removed contact). */
	async function runAll(typeVersion: number) {
		const { saved, paths } = await publish(typeVersion);
		const email = `ada.${randomUUID().slice(0, 8)}@example.com`;
		const [post] = await call(paths['On New Contact'], { first_name: 'Ada', email, company: 'Analytical Engines Ltd' });
		const created = await stored(email);

		await session.sandbox.queueFault({
			match: { method: 'PUT', path: `/contacts/${created.id}` },
			fault: { kind: 'status', status: 200, body: { success: true, data: { id: created.id, updated_at: UPDATED_AT } }, afterCommit: true },
		});
		const put = (await call(paths['On Contact Changed'], { id: created.id })).find((r) => r.method === 'PUT');
		const updated = await stored(email);

		await session.sandbox.setVariants(['soft-delete']);
		await call(paths['On Contact Removed'], { id: created.id });

		const executions = await waitForExecutions(session.n8n, saved.id, (all) => all.length === 3);
		const output = (name: string) => executions.map((e: Execution) => nodeOutput(e, name)).find((items) => items.length > 0);
		return {
			created,
			updated,
			sent: { post: post.body, put: put?.body },
			outputs: { create: output('Create contact'), update: output('Update contact'), delete: output('Delete contact') },
		};
	}

	test('version 1, as 0.1.0 saved it: each node outputs the ERP\'s answer as it came, as 0.1.0 did', async () => {
		const { created, updated, outputs } = await runAll(1);

		// The document's create answer: id, first_name, created_at, and nothing of what was sent besides.
		expect(outputs.create).toEqual([{ id: created.id, first_name: 'Ada', created_at: created.created_at }]);
		expect(outputs.update).toEqual([{ id: created.id, updated_at: UPDATED_AT }]);
		expect(outputs.delete).toEqual([{ ...updated, deleted_at: expect.any(String) }]);
	});

	test('a new node (the version n8n gives one, 1.1): what was sent under the ERP\'s answer, and n8n\'s confirmation of a delete', async () => {
		const type = (await session.n8n.nodeTypes()).find((t) => t.name === ERP_NODE_TYPE);
		expect(type?.defaultVersion).toBe(1.1);
		const { created, sent, outputs } = await runAll(1.1);

		expect(sent.post).toEqual({ first_name: 'Ada', email: created.email, company: 'Analytical Engines Ltd' });
		expect(outputs.create).toEqual([{ ...(sent.post as object), id: created.id, created_at: created.created_at }]);
		expect(sent.put).toMatchObject({ email: created.email, notes: 'Imported from the web form' });
		expect(outputs.update).toEqual([{ ...(sent.put as object), id: created.id, updated_at: UPDATED_AT }]);
		expect(outputs.delete).toEqual([{ deleted: true, id: created.id }]);
	});
});
