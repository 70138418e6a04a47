import { randomBytes } from 'node:crypto';

import { stopOnSignals } from '../../../tooling/host/processes';
import { startStack } from '../../../tooling/host/stack';
import { handOver, stackContext } from '../../../tooling/host/context';
import { type ReliabilityContext, runSeed, SEED_ENV } from './context';
import globalTeardown from '../../../tooling/host/globalTeardown';

const OWNER = { email: 'reliability@example.com', password: 'Reliab1lity-run', firstName: 'Reliability', lastName: 'Suite' };

const distinctive = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;

/** One n8n (logging at debug level, so the secrets scan sees the most) and one sandbox without a rate limit. */
export default async function globalSetup(): Promise<void> {
	const log = (line: string) => process.stderr.write(`[reliability] ${line}\n`);
	stopOnSignals(globalTeardown, log);
	const faultSeed = runSeed();
	log(`random faults seeded with ${faultSeed}: ${SEED_ENV}=${faultSeed} npm run test:reliability replays them`);
	// n8n inherits this process's environment.
	process.env.N8N_LOG_LEVEL = 'debug';
	// n8n 2.41.1's default expression engine (vm) loads its runtime into a fresh isolate several times an execution; on
	// two cores under the confirmation scenario's 16 deliveries in flight that starves SQLite's write lock (60-s
	// timeouts, executions left unstarted). The suite counts what the nodes lose or repeat, so n8n runs its legacy
	// engine here; the e2e, editor and queue suites keep n8n's default.
	process.env.N8N_EXPRESSION_ENGINE = 'legacy';
	const token = distinctive('erp-full');
	const readOnlyToken = distinctive('erp-readonly');
	const stack = await startStack({
		owner: OWNER,
		// Orders: the Custom API Call scenarios' extension. The ERP waits 30 s for n8n's answer (as in the queue suite):
		// a busy n8n may take over the default 5 s, and a delivery sent again for that tests nothing of the node.
		sandbox: { token, readOnlyToken, rateLimit: null, overdueSweepMs: 0, webhookRetryDelaysMs: [100], webhookTimeoutMs: 30_000, extensions: ['orders'] },
		log,
	});
	globalThis.n8nErpStarted = stack;
	const { client, sandbox, n8n, install, timings } = stack;
	const base = await stackContext(stack, 'reliability', OWNER, distinctive('erp-wrong'));
	const webhookSecret = distinctive('whsec');
	const context: ReliabilityContext = {
		...base,
		credentials: {
			...base.credentials,
			readOnly: await client.createCredential('ERP API (read-only)', 'erpApi', { baseUrl: sandbox.baseUrl, apiToken: readOnlyToken }),
			webhook: await client.createCredential('ERP API (webhook secret)', 'erpApi', { baseUrl: sandbox.baseUrl, apiToken: token, webhookSecret }),
		},
		webhookSecret,
		n8nLogFile: n8n.logFile,
		faultSeed,
	};
	handOver(stack.userFolder, 'reliability', context);
	log(`n8n ${install.version} at ${n8n.baseUrl} (build+pack ${timings.buildMs} ms, boot ${timings.bootMs} ms); log: ${n8n.logFile}`);
}
