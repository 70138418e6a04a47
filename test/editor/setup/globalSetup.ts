import { mkdirSync, rmSync } from 'node:fs';

import { DEMO_SANDBOX, importExamples } from '../../../tooling/host/demoWorkflows';
import { stopOnSignals } from '../../../tooling/host/processes';
import { startStack } from '../../../tooling/host/stack';
import { handOver } from '../../../tooling/host/context';
import { EDITOR_CONTEXT_ENV, type EditorContext, SCREENSHOTS_DIR } from '../support/session';
import globalTeardown from '../../../tooling/host/globalTeardown';

const OWNER = { email: 'editor@example.com', password: 'Editor-passw0rd', firstName: 'Editor', lastName: 'Tester' };

/** One sandbox and one n8n for the run, with the example workflows imported as `npm start` imports them. */
export default async function globalSetup(): Promise<void> {
	const log = (line: string) => process.stderr.write(`[editor] ${line}\n`);
	stopOnSignals(globalTeardown, log);
	// Only this run's pictures: a stale failure screenshot would mislead.
	rmSync(SCREENSHOTS_DIR, { recursive: true, force: true });
	mkdirSync(SCREENSHOTS_DIR, { recursive: true });
	const stack = await startStack({ owner: OWNER, sandbox: { ...DEMO_SANDBOX, overdueSweepMs: 0 }, log });
	globalThis.n8nErpStarted = stack;
	const context: EditorContext = {
		n8nUrl: stack.n8n.baseUrl,
		sandboxUrl: stack.sandbox.url,
		owner: OWNER,
		apiKey: await stack.client.createApiKey(`editor ${Date.now()}`),
		credential: stack.credential,
		examples: await importExamples(stack),
	};
	handOver(stack.userFolder, 'editor', context, EDITOR_CONTEXT_ENV);
	log(`n8n ${stack.install.version} at ${stack.n8n.baseUrl} (boot ${stack.timings.bootMs} ms); log: ${stack.n8n.logFile}`);
}
