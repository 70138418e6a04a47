import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { exitOnSignals } from '../../host/processGroup';
import { startStack, type Stack } from '../../host/stack';
import { CONTEXT_ENV, type E2eContext } from './context';

declare global {
	// Shared with globalTeardown, which runs in the same process.
	var n8nErpE2eStack: Stack | undefined;
}

export const OWNER = { email: 'e2e@example.com', password: 'E2e-passw0rd', firstName: 'End', lastName: 'ToEnd' };
const WRONG_TOKEN = 'not-a-valid-token';

/** One n8n and one sandbox for the whole run. N8N_ERP_E2E_KEEP=<dir> keeps n8n's user folder there. */
export default async function globalSetup(): Promise<void> {
	const log = (line: string) => process.stderr.write(`[e2e] ${line}\n`);
	exitOnSignals();
	const stack = await startStack({
		owner: OWNER,
		userFolder: process.env.N8N_ERP_E2E_KEEP || undefined,
		// Seeded like a small company; the overdue timer is off so that invoice.overdue comes only when a test
		// sweeps; refused webhook deliveries are retried within a second instead of seven.
		sandbox: {
			seed: { contacts: 20, invoices: 30, products: 12, employees: 8 },
			overdueSweepMs: 0,
			webhookRetryDelaysMs: [100, 200, 400],
		},
		log,
	});
	globalThis.n8nErpE2eStack = stack;
	const { client, sandbox, n8n, credential, install } = stack;
	const context: E2eContext = {
		n8nUrl: n8n.baseUrl,
		sandboxUrl: sandbox.url,
		sandboxBaseUrl: sandbox.baseUrl,
		token: sandbox.token,
		readOnlyToken: sandbox.readOnlyToken,
		owner: OWNER,
		apiKey: await client.createApiKey(`e2e ${Date.now()}`),
		credentials: {
			good: credential,
			wrongToken: await client.createCredential('ERP API (wrong token)', 'erpApi', {
				baseUrl: sandbox.baseUrl,
				apiToken: WRONG_TOKEN,
			}),
		},
		wrongToken: WRONG_TOKEN,
		n8nVersion: install.version,
	};
	const file = path.join(stack.userFolder, 'e2e-context.json');
	writeFileSync(file, JSON.stringify(context, null, 2));
	process.env[CONTEXT_ENV] = file;
	log(
		`n8n ${install.version} at ${n8n.baseUrl} (install check ${stack.timings.installCheckMs} ms, build+pack ${stack.timings.buildMs} ms, boot ${stack.timings.bootMs} ms); log: ${n8n.logFile}`,
	);
}
