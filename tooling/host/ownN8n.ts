import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { ensureN8nInstalled } from './install';
import { killN8n, startN8n, stopN8n, type N8nProcess } from './n8nProcess';
import { freePort } from './ports';
import { removeFolder, temporaryFolder } from './processes';
import { N8nClient } from './restClient';
import { erpCredential } from './stack';
import { contextFile, type E2eContext } from './context';

/**
 * A second n8n for a test that must stop and start it: its own user folder with the package globalSetup installed,
 * its own ports, the run's sandbox; `environment` on top of the line's (e.g. the durable scheduler's).
 * `installPackage` puts the package into the user folder's `.n8n/nodes` another way (given that folder).
 */
export async function startOwnN8n(ctx: E2eContext, environment: Record<string, string> = {}, installPackage?: (nodesFolder: string) => void) {
	const install = ensureN8nInstalled();
	const userFolder = temporaryFolder('own');
	const nodesFolder = path.join(userFolder, '.n8n', 'nodes');
	if (installPackage) installPackage(nodesFolder);
	else cpSync(path.join(path.dirname(contextFile()), '.n8n', 'nodes'), nodesFolder, { recursive: true });
	const spec = { install, userFolder, port: await freePort(), brokerPort: await freePort(), environment };
	const client = new N8nClient(`http://127.0.0.1:${spec.port}`);
	let n8n: N8nProcess | undefined;
	const own = {
		client,
		/** Starts it again on the same user folder (database, workflows, static data) and signs in. */
		async start() {
			n8n = await startN8n(spec);
			await client.signIn(ctx.owner);
		},
		/** Stops n8n (SIGTERM to its process group, as a user's Ctrl-C). */
		async stop() {
			if (n8n) await stopN8n(n8n);
			n8n = undefined;
		},
		/** Kills n8n and its task runners with SIGKILL, no shutdown (a crash, the OOM killer). */
		async kill() {
			if (n8n) await killN8n(n8n);
			n8n = undefined;
		},
		/** Its log so far (n8n.log in its user folder). */
		log: () => readFileSync(path.join(userFolder, 'n8n.log'), 'utf8'),
		/** Stops it and deletes its user folder. */
		async dispose() {
			await own.stop();
			removeFolder(userFolder);
		},
	};
	await own.start();
	// Every test of its own n8n reads executions through the public API; the key stays valid across restarts.
	await client.createApiKey(`own n8n ${Date.now()}`);
	return {
		...own,
		/** "ERP API" for the run's sandbox. */
		credential: await erpCredential(client, { baseUrl: ctx.sandboxBaseUrl, token: ctx.token }),
	};
}

export type OwnN8n = Awaited<ReturnType<typeof startOwnN8n>>;
