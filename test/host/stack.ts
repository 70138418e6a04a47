import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/server';
import { buildPackage, installCommunityPackage, packPackage } from './communityPackage';
import { ensureN8nInstalled, type N8nInstall } from './install';
import { n8nLine } from './lines';
import { startN8n, type N8nServer } from './n8nServer';
import { PACKAGE_NAME } from './paths';
import { freePort } from './ports';
import { N8nClient, type Owner } from './restClient';
import type { Credential } from './types';

export interface StackOptions {
	n8nPort?: number;
	sandbox: SandboxOptions;
	owner: Owner;
	/** A user folder to use and keep (created when missing); default: a fresh temporary one, deleted by stop(). */
	userFolder?: string;
	/** Progress lines for a human; default: none. */
	log?: (line: string) => void;
}

export interface Stack {
	install: N8nInstall;
	sandbox: Sandbox;
	n8n: N8nServer;
	/** Logged in as the owner. */
	client: N8nClient;
	/** "ERP API": the sandbox's base URL and full-access token. */
	credential: Credential;
	userFolder: string;
	timings: Record<'installCheckMs' | 'buildMs' | 'bootMs', number>;
	stop(): Promise<void>;
}

const CREDENTIAL_NAME = 'ERP API';

/** Creates the owner on a fresh instance, logs in on a kept one. */
export async function signIn(client: N8nClient, owner: Owner): Promise<void> {
	if (await client.needsOwnerSetup()) await client.setupOwner(owner);
	else await client.login(owner);
}

/** The "ERP API" credential for the sandbox; on a kept instance the existing one is pointed at this sandbox. */
export async function erpCredential(client: N8nClient, sandbox: Pick<Sandbox, 'baseUrl' | 'token'>): Promise<Credential> {
	const data = { baseUrl: sandbox.baseUrl, apiToken: sandbox.token };
	const existing = (await client.listCredentials()).find((c) => c.name === CREDENTIAL_NAME && c.type === 'erpApi');
	if (!existing) return await client.createCredential(CREDENTIAL_NAME, 'erpApi', data);
	await client.updateCredential(existing, data);
	return existing;
}

/**
 * Everything a demo or a test run needs: n8n installed (first run: minutes), this package built, packed and
 * installed as a community package, the sandbox ERP, n8n started, the owner signed in, the credential.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
	const log = options.log ?? (() => undefined);
	let started = Date.now();
	const install = ensureN8nInstalled();
	const installCheckMs = Date.now() - started;

	log(`building ${PACKAGE_NAME} and packing it as npm would publish it…`);
	started = Date.now();
	buildPackage();
	const tarball = packPackage();
	const buildMs = Date.now() - started;

	const userFolder = options.userFolder ?? mkdtempSync(path.join(os.tmpdir(), 'n8n-nodes-erp-user-'));
	// A temporary folder goes even when the process ends without stop() (e.g. a second Ctrl-C).
	const removeTemporary = () => {
		if (!options.userFolder) rmSync(userFolder, { recursive: true, force: true });
	};
	process.once('exit', removeTemporary);
	installCommunityPackage(userFolder, tarball);
	rmSync(path.dirname(tarball), { recursive: true, force: true });

	// Whatever has started so far is stopped again when a later step fails.
	let sandbox: Sandbox | undefined;
	let n8n: N8nServer | undefined;
	const stop = async () => {
		await n8n?.stop();
		await sandbox?.close();
		process.removeListener('exit', removeTemporary);
		removeTemporary();
	};
	try {
		sandbox = await startSandbox(options.sandbox);
		log(`sandbox ERP listening at ${sandbox.baseUrl}`);
		const port = options.n8nPort ?? (await freePort());
		log(`starting n8n ${install.version} on port ${port} (user folder ${userFolder})…`);
		n8n = await startN8n({ install, userFolder, port, brokerPort: await freePort() });
		log(`n8n ready in ${(n8n.bootMs / 1000).toFixed(1)} s`);

		const client = new N8nClient(n8n.baseUrl, undefined, n8nLine(install.version));
		await signIn(client, options.owner);
		const credential = await erpCredential(client, sandbox);
		const timings = { installCheckMs, buildMs, bootMs: n8n.bootMs };
		return { install, sandbox, n8n, client, credential, userFolder, timings, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
