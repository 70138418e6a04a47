import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ensureN8nInstalled } from './install';
import { n8nLine } from './lines';
import { startN8n, type N8nServer } from './n8nServer';
import { freePort } from './ports';
import { N8nClient } from './restClient';
import { erpCredential, signIn } from './stack';
import type { Credential } from './types';
import { contextFile, type E2eContext } from '../e2e/setup/context';

export interface OwnN8n {
	client: N8nClient;
	/** "ERP API" for the run's sandbox. */
	credential: Credential;
	/** Stops n8n (SIGTERM to its process group, as a user's Ctrl-C). */
	stop(): Promise<void>;
	/** Starts it again on the same user folder (database, workflows, static data) and signs in. */
	start(): Promise<void>;
	/** Stops it and deletes its user folder. */
	dispose(): Promise<void>;
}

/**
 * A second n8n of the run's version, for a test that must stop and start n8n: its own user folder holding the
 * package globalSetup installed (copied from the run's user folder), on its own ports, with the run's sandbox.
 */
export async function startOwnN8n(ctx: E2eContext): Promise<OwnN8n> {
	const install = ensureN8nInstalled();
	const userFolder = mkdtempSync(path.join(os.tmpdir(), 'n8n-nodes-erp-own-'));
	cpSync(path.join(path.dirname(contextFile()), '.n8n', 'nodes'), path.join(userFolder, '.n8n', 'nodes'), { recursive: true });
	const ports = { port: await freePort(), brokerPort: await freePort() };
	let server: N8nServer | undefined;
	const client = new N8nClient(`http://127.0.0.1:${ports.port}`, undefined, n8nLine(install.version));
	const start = async () => {
		server = await startN8n({ install, userFolder, ...ports });
		await signIn(client, ctx.owner);
	};
	const stop = async () => {
		await server?.stop();
		server = undefined;
	};
	await start();
	const credential = await erpCredential(client, { baseUrl: ctx.sandboxBaseUrl, token: ctx.token });
	return {
		client,
		credential,
		stop,
		start,
		async dispose() {
			await stop();
			rmSync(userFolder, { recursive: true, force: true });
		},
	};
}
