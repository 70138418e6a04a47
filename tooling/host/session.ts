import { N8nClient } from './restClient';
import { SandboxAdmin } from '../../sandbox/adminClient';
import { readContext, type E2eContext } from './context';

/** A test file's session; `C`, the suite's context: the reliability suite's adds its secrets and credentials. */
export interface Session<C extends E2eContext = E2eContext> {
	ctx: C;
	/** Logged in as the owner, with the public API key. */
	n8n: N8nClient;
	sandbox: SandboxAdmin;
}

/** Connects a test file to the n8n and sandbox globalSetup started. */
export async function connect<C extends E2eContext = E2eContext>(): Promise<Session<C>> {
	const ctx = readContext<C>();
	const n8n = new N8nClient(ctx.n8nUrl, ctx.apiKey);
	await n8n.login(ctx.owner);
	return { ctx, n8n, sandbox: new SandboxAdmin(ctx.sandboxUrl) };
}
