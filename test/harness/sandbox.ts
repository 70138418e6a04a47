import axios, { type AxiosInstance } from 'axios';

import { SandboxAdmin } from '../../sandbox/adminClient';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/server';

export { waitFor } from '../../sandbox/adminClient';
export type { VariantChoice, VariantName, VariantSettings } from '../../sandbox/variants';

export interface TestSandbox extends Sandbox {
	admin: SandboxAdmin;
	/** axios on baseUrl with the full-access token; never throws on an HTTP status. */
	api: AxiosInstance;
}

/**
 * Starts an in-process sandbox on a random port. Test defaults differ from the sandbox's own: no rate limit,
 * no overdue timer, webhook retries after 10, 20, 40 ms. Pass options to change any of them.
 */
export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
	const sandbox = await startSandbox({ rateLimit: null, overdueSweepMs: 0, webhookRetryDelaysMs: [10, 20, 40], ...options });
	const api = axios.create({
		baseURL: sandbox.baseUrl,
		headers: { Authorization: `Bearer ${sandbox.token}` },
		validateStatus: () => true,
	});
	return Object.assign(sandbox, { admin: new SandboxAdmin(sandbox.url), api });
}

/**
 * One sandbox for a whole test file: started before its tests (with `startTestSandbox(options)`), reset before
 * each test, closed after them. Call it at the top of the file; the object it returns is filled in by beforeAll.
 */
export function useTestSandbox(options: SandboxOptions = {}): TestSandbox {
	const shared = {} as TestSandbox;
	beforeAll(async () => {
		Object.assign(shared, await startTestSandbox(options));
	});
	afterAll(() => shared.close());
	beforeEach(() => shared.admin.reset());
	return shared;
}
