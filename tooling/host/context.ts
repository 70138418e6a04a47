import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { Owner } from './restClient';
import type { Stack } from './stack';
import type { Credential } from './types';

/** What globalSetup hands to the test files (through a JSON file named in the environment). */
export interface E2eContext {
	n8nUrl: string;
	sandboxUrl: string;
	sandboxBaseUrl: string;
	token: string;
	readOnlyToken: string;
	owner: Owner;
	apiKey: string;
	credentials: {
		/** The sandbox with its full-access token. */
		good: Credential;
		/** The sandbox with a token it does not know. */
		wrongToken: Credential;
	};
	wrongToken: string;
	n8nVersion: string;
}

export const CONTEXT_ENV = 'N8N_ERP_E2E_CONTEXT';

/** The context file globalSetup named in `env` (the queue suite's has its own variable). */
export function contextFile(env = CONTEXT_ENV): string {
	const file = process.env[env];
	if (!file) throw new Error(`${env} is not set: run the suite with its npm script (npm run test:e2e, test:reliability, test:queue)`);
	return file;
}

/** The context globalSetup handed over: the end-to-end one, or a suite's own (`T`) named in `env`. */
export function readContext<T = E2eContext>(env = CONTEXT_ENV): T {
	return JSON.parse(readFileSync(contextFile(env), 'utf8')) as T;
}

/** The context of a run on `stack`: an API key for `suite`, and a credential with a token the sandbox does not know. */
export async function stackContext(stack: Stack, suite: string, owner: Owner, wrongToken: string): Promise<E2eContext> {
	const { client, sandbox, n8n, credential, install } = stack;
	const wrong = await client.createCredential('ERP API (wrong token)', 'erpApi', { baseUrl: sandbox.baseUrl, apiToken: wrongToken });
	return {
		n8nUrl: n8n.baseUrl,
		sandboxUrl: sandbox.url,
		sandboxBaseUrl: sandbox.baseUrl,
		token: sandbox.token,
		readOnlyToken: sandbox.readOnlyToken,
		owner,
		apiKey: await client.createApiKey(`${suite} ${Date.now()}`),
		credentials: { good: credential, wrongToken: wrong },
		wrongToken,
		n8nVersion: install.version,
	};
}

/** Writes the context into `folder` (n8n's user folder, the queue run's folder) and names it in the environment, which the test files inherit. */
export function handOver(folder: string, suite: string, context: object, env = CONTEXT_ENV): void {
	const file = path.join(folder, `${suite}-context.json`);
	writeFileSync(file, JSON.stringify(context, null, 2));
	process.env[env] = file;
}
