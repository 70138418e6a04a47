import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { exitOnSignals } from '../../host/processGroup';
import { startStack, type Stack } from '../../host/stack';
import { CONTEXT_ENV } from '../../e2e/setup/context';
import type { ReliabilityContext } from './context';
import { runSeed, SEED_ENV } from './seed';

declare global {
	// Shared with globalTeardown, which runs in the same process.
	var n8nErpReliabilityStack: Stack | undefined;
}

const OWNER = { email: 'reliability@example.com', password: 'Reliab1lity-run', firstName: 'Reliability', lastName: 'Suite' };

const distinctive = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;

/** One n8n (logging at debug level, so the secrets scan sees the most) and one sandbox without a rate limit. */
export default async function globalSetup(): Promise<void> {
	const log = (line: string) => process.stderr.write(`[reliability] ${line}\n`);
	exitOnSignals();
	const faultSeed = runSeed();
	log(`random faults seeded with ${faultSeed}: ${SEED_ENV}=${faultSeed} npm run test:reliability replays them`);
	// n8n inherits this process's environment.
	process.env.N8N_LOG_LEVEL = 'debug';
	const token = distinctive('erp-full');
	const readOnlyToken = distinctive('erp-readonly');
	const stack = await startStack({
		owner: OWNER,
		sandbox: { token, readOnlyToken, rateLimit: null, overdueSweepMs: 0, webhookRetryDelaysMs: [100] },
		log,
	});
	globalThis.n8nErpReliabilityStack = stack;
	const { client, sandbox, n8n, credential, install } = stack;
	const wrongToken = distinctive('erp-wrong');
	const webhookSecret = distinctive('whsec');
	const context: ReliabilityContext = {
		n8nUrl: n8n.baseUrl,
		sandboxUrl: sandbox.url,
		sandboxBaseUrl: sandbox.baseUrl,
		token,
		readOnlyToken,
		owner: OWNER,
		apiKey: await client.createApiKey(`reliability ${Date.now()}`),
		credentials: {
			good: credential,
			wrongToken: await client.createCredential('ERP API (wrong token)', 'erpApi', { baseUrl: sandbox.baseUrl, apiToken: wrongToken }),
			readOnly: await client.createCredential('ERP API (read-only)', 'erpApi', { baseUrl: sandbox.baseUrl, apiToken: readOnlyToken }),
			webhook: await client.createCredential('ERP API (webhook secret)', 'erpApi', { baseUrl: sandbox.baseUrl, apiToken: token, webhookSecret }),
		},
		wrongToken,
		webhookSecret,
		n8nLogFile: n8n.logFile,
		n8nVersion: install.version,
		faultSeed,
	};
	const file = path.join(stack.userFolder, 'reliability-context.json');
	writeFileSync(file, JSON.stringify(context, null, 2));
	process.env[CONTEXT_ENV] = file;
	log(`n8n ${install.version} at ${n8n.baseUrl} (build+pack ${stack.timings.buildMs} ms, boot ${stack.timings.bootMs} ms); log: ${n8n.logFile}`);
}
