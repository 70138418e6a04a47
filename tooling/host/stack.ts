import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/server';
import { preparePackage } from './communityPackage';
import type { N8nInstall } from './install';
import { startN8n, stopN8n, type N8nProcess } from './n8nProcess';
import { freePort } from './ports';
import { removeFolder, temporaryFolder } from './processes';
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
	/** Called with the user folder once this package is installed in it, before n8n boots (the bench adds its floor node). */
	beforeBoot?: (userFolder: string) => void;
}

export interface Stack {
	install: N8nInstall;
	sandbox: Sandbox;
	n8n: N8nProcess;
	/** Logged in as the owner. */
	client: N8nClient;
	/** "ERP API": the sandbox's base URL and full-access token. */
	credential: Credential;
	userFolder: string;
	timings: Record<'installCheckMs' | 'buildMs' | 'bootMs', number>;
	stop(): Promise<void>;
}

/** The "ERP API" credential for the sandbox; on a kept instance the existing one is pointed at this sandbox. */
export const erpCredential = (client: N8nClient, sandbox: Pick<Sandbox, 'baseUrl' | 'token'>): Promise<Credential> =>
	client.saveCredential('ERP API', 'erpApi', { baseUrl: sandbox.baseUrl, apiToken: sandbox.token });

/** What a demo or test run needs: n8n (installed on the first run: minutes), this package installed in it, the sandbox ERP, n8n started, the owner signed in, the credential. */
export async function startStack(options: StackOptions): Promise<Stack> {
	const log = options.log ?? (() => undefined);
	const userFolder = options.userFolder ?? temporaryFolder('user');
	// Whatever has started so far is stopped again when a later step fails.
	let sandbox: Sandbox | undefined;
	let n8n: N8nProcess | undefined;
	const stop = async () => {
		if (n8n) await stopN8n(n8n);
		await sandbox?.close();
		if (!options.userFolder) removeFolder(userFolder);
	};
	try {
		const { install, timings } = preparePackage([userFolder], log);
		options.beforeBoot?.(userFolder);
		sandbox = await startSandbox(options.sandbox);
		log(`sandbox ERP listening at ${sandbox.baseUrl}`);
		const port = options.n8nPort ?? (await freePort());
		log(`starting n8n ${install.version} on port ${port} (user folder ${userFolder})…`);
		n8n = await startN8n({ install, userFolder, port, brokerPort: await freePort() });
		log(`n8n ready in ${(n8n.bootMs / 1000).toFixed(1)} s`);

		const client = new N8nClient(n8n.baseUrl);
		await client.signIn(options.owner);
		const credential = await erpCredential(client, sandbox);
		return { install, sandbox, n8n, client, credential, userFolder, timings: { ...timings, bootMs: n8n.bootMs }, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
