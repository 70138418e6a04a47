import { stopOnSignals } from '../../../tooling/host/processes';
import { startStack } from '../../../tooling/host/stack';
import { handOver, stackContext } from '../../../tooling/host/context';
import globalTeardown from './globalTeardown';

const OWNER = { email: 'e2e@example.com', password: 'E2e-passw0rd', firstName: 'End', lastName: 'ToEnd' };

/** One n8n and one sandbox for the whole run. N8N_ERP_E2E_KEEP=<dir> keeps n8n's user folder there. */
export default async function globalSetup(): Promise<void> {
	const log = (line: string) => process.stderr.write(`[e2e] ${line}\n`);
	stopOnSignals(globalTeardown, log);
	const stack = await startStack({
		owner: OWNER,
		userFolder: process.env.N8N_ERP_E2E_KEEP || undefined,
		// Seeded like a small company; no overdue timer (invoice.overdue only when a test sweeps); refused deliveries
		// retried within a second, not seven. Orders: an extension the API document lacks, for Custom API Call.
		sandbox: {
			seed: { contacts: 20, invoices: 30, products: 12, employees: 8, orders: 45 },
			extensions: ['orders'],
			overdueSweepMs: 0,
			webhookRetryDelaysMs: [100, 200, 400],
		},
		log,
	});
	globalThis.n8nErpStarted = stack;
	handOver(stack.userFolder, 'e2e', await stackContext(stack, 'e2e', OWNER, 'not-a-valid-token'));
	const { install, n8n, timings } = stack;
	log(`n8n ${install.version} at ${n8n.baseUrl} (install check ${timings.installCheckMs} ms, build+pack ${timings.buildMs} ms, boot ${timings.bootMs} ms); log: ${n8n.logFile}`);
}
