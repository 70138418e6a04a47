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

/** An in-process sandbox on a random port, with test defaults (options override them): no rate limit, no overdue timer, webhook retries after 10, 20, 40 ms. */
export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
	const sandbox = await startSandbox({ rateLimit: null, overdueSweepMs: 0, webhookRetryDelaysMs: [10, 20, 40], ...options });
	const api = axios.create({ baseURL: sandbox.baseUrl, headers: { Authorization: `Bearer ${sandbox.token}` }, validateStatus: () => true });
	return Object.assign(sandbox, { admin: new SandboxAdmin(sandbox.url), api });
}

/** One sandbox for a test file: started before its tests, reset before each, closed after them; call it at the file's top (beforeAll fills in what it returns). */
export function useTestSandbox(options: SandboxOptions = {}): TestSandbox {
	const shared = {} as TestSandbox;
	beforeAll(async () => {
		Object.assign(shared, await startTestSandbox(options));
	});
	afterAll(() => shared.close());
	beforeEach(() => shared.admin.reset());
	return shared;
}
