import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { Owner } from '../../host/restClient';
import type { Credential } from '../../host/types';

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

export function contextFile(): string {
	const file = process.env[CONTEXT_ENV];
	if (!file) throw new Error(`${CONTEXT_ENV} is not set: run the end-to-end tests with npm run test:e2e`);
	return file;
}

export function readContext(): E2eContext {
	return JSON.parse(readFileSync(contextFile(), 'utf8')) as E2eContext;
}

/** Where the round-trip test leaves its timings (ms) for globalTeardown: n8n's user folder, beside the context file. */
export const roundTripsFile = (userFolder = path.dirname(contextFile())): string => path.join(userFolder, 'round-trips.json');
