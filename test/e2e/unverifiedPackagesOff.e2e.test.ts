import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Contact } from '../../sandbox/types';
import { activeConfirmingTrigger, triggerBranch } from '../../tooling/host/confirmingTrigger';
import { erpApi } from '../../tooling/host/erpApi';
import { atLeast, nodeOutput, waitForExecutions } from '../../tooling/host/executions';
import { n8nLine } from '../../tooling/host/lines';
import { startOwnN8n, type OwnN8n } from '../../tooling/host/ownN8n';
import { PACKAGE_NAME, REPO_ROOT } from '../../tooling/host/paths';
import { N8nRequestError } from '../../tooling/host/restClient';
import { calls, runErp } from '../../tooling/host/runErp';
import type { Session } from '../../tooling/host/session';
import { useSession } from './setup/session';
import { byId, ERP_NODE_TYPE, ERP_POLLING_TRIGGER_NAME, ERP_POLLING_TRIGGER_TYPE, ERP_TRIGGER_TYPE, erpPollingTriggerNode } from '../../tooling/host/workflows';
import { N8N_VERSION } from '../../tooling/host/install';

/**
 * n8n 3.0's default, N8N_UNVERIFIED_PACKAGES_ENABLED=false, on the n8n under test: n8n refuses to install an
 * unverified package through its UI and REST API, but loads one installed by hand into ~/.n8n/nodes, as the
 * README says (`npm install n8n-nodes-erp --legacy-peer-deps` in that folder; here the packed tarball). Each node
 * then runs in a workflow: the ERP node, the ERP Trigger (an event the sandbox delivers, confirmed), the ERP
 * Polling Trigger (a contact added between two polls).
 */

const line = n8nLine(N8N_VERSION);

/** The tarball .ci/run packed, or this checkout packed now (globalSetup built dist/). */
function tarball(folder: string): string {
	if (process.env.N8N_ERP_TARBALL) return process.env.N8N_ERP_TARBALL;
	const [{ filename }] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', folder], { cwd: REPO_ROOT, encoding: 'utf8' })) as Array<{ filename: string }>;
	return path.join(folder, filename);
}

/** The README's manual install, from the tarball: npm, offline, no copy of n8n-workflow beside the package. */
function npmInstall(nodesFolder: string, packed: string): void {
	mkdirSync(nodesFolder, { recursive: true });
	execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', '--legacy-peer-deps', packed], { cwd: nodesFolder, stdio: ['ignore', 'ignore', 'inherit'] });
}

const session = useSession();
let own: OwnN8n;
let ownSession: Session;
let packFolder: string;
let nodesFolder: string;

beforeAll(async () => {
	packFolder = mkdtempSync(path.join(os.tmpdir(), `${PACKAGE_NAME}-unverified-off-`));
	const packed = tarball(packFolder);
	own = await startOwnN8n(session.ctx, { N8N_UNVERIFIED_PACKAGES_ENABLED: 'false' }, (folder) => {
		nodesFolder = folder;
		npmInstall(folder, packed);
	});
	ownSession = { ctx: { ...session.ctx, n8nUrl: own.client.baseUrl }, n8n: own.client, sandbox: session.sandbox };
}, 240_000);

afterAll(async () => {
	await own?.dispose();
	if (packFolder) rmSync(packFolder, { recursive: true, force: true });
});

describe(`n8n ${N8N_VERSION} with N8N_UNVERIFIED_PACKAGES_ENABLED=false`, () => {
	it('refuses to install the package through the REST API the Community Nodes page uses, and loads the one npm installed into ~/.n8n/nodes: its three nodes', async () => {
		const refused = await own.client.rest('POST', '/rest/community-packages', { name: PACKAGE_NAME }).then(
			() => undefined,
			(error: unknown) => error,
		);
		expect(refused).toBeInstanceOf(N8nRequestError);
		expect((refused as N8nRequestError).body).toContain('Installation of unverified community packages is forbidden!');

		const installed = JSON.parse(readFileSync(path.join(nodesFolder, 'node_modules', PACKAGE_NAME, 'package.json'), 'utf8')) as { version: string };
		const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
		expect(installed.version).toBe(pkg.version);
		const types = (await own.client.nodeTypes()).map((type) => type.name);
		expect(types).toEqual(expect.arrayContaining([ERP_NODE_TYPE, ERP_TRIGGER_TYPE, ERP_POLLING_TRIGGER_TYPE]));
	});

	it('runs the ERP node: a contact read through the sandbox', async () => {
		const contact = await erpApi<Contact>(session.ctx, 'POST', '/contacts', { first_name: 'Vera', last_name: 'Unverified', email: `vera.${Date.now()}@example.com` });
		const run = await runErp(ownSession, { resource: 'contact', operation: 'get', contactId: byId(contact.id) }, { credential: own.credential });
		expect(run.status).toBe(200);
		expect(calls(run)).toEqual([`GET /contacts/${contact.id} 200`]);
		expect(run.items).toEqual([await session.sandbox.record('contacts', contact.id)]);
	});

	it('ERP Trigger: starts its workflow on an event the ERP delivers, confirmed with the ERP', async () => {
		const trigger = await activeConfirmingTrigger(own.client, session.sandbox, 'unverified off: trigger', ['contact.created'], own.credential);
		try {
			const contact = await erpApi<Contact>(session.ctx, 'POST', '/contacts', { first_name: 'Tom', last_name: 'Trigger', email: `tom.${Date.now()}@example.com` });
			const [execution] = await waitForExecutions(own.client, trigger.workflow.id, atLeast(1));
			expect(execution.status).toBe('success');
			expect(triggerBranch(execution, 0).map((item) => [item.event, item.data.id, item.confirmation.status])).toEqual([['contact.created', contact.id, 'confirmed']]);
		} finally {
			if (trigger.subscriptionId !== undefined) await session.sandbox.removeWebhook(trigger.subscriptionId);
		}
	});

	it('ERP Polling Trigger: reports a contact added between two polls', async () => {
		const workflow = await own.client.createActiveWorkflow({
			name: 'unverified off: polling',
			nodes: [erpPollingTriggerNode(line.shortestPoll.pollTimes, { triggerOn: 'contact:recordAdded' }, own.credential)],
			connections: {},
		});
		const pollWaitMs = line.shortestPoll.intervalMs + 20_000;
		// The activation's poll takes a baseline: nothing reported.
		const [baseline] = await waitForExecutions(own.client, workflow.id, atLeast(1), pollWaitMs);
		expect(nodeOutput(baseline, ERP_POLLING_TRIGGER_NAME)).toEqual([]);
		const contact = await erpApi<Contact>(session.ctx, 'POST', '/contacts', { first_name: 'Paula', last_name: 'Poll', email: `paula.${Date.now()}@example.com` });
		const executions = await waitForExecutions(own.client, workflow.id, atLeast(2), pollWaitMs);
		expect(executions.map((e) => e.status)).toEqual(executions.map(() => 'success'));
		const reported = executions.slice(1).flatMap((e) => nodeOutput(e, ERP_POLLING_TRIGGER_NAME));
		expect(reported.map((json) => [json.event, (json.data as { id?: unknown }).id])).toEqual([['contact.created', contact.id]]);
	}, 120_000);
});
