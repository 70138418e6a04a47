// Every error the transport throws declares n8n's `failure` (n8n-workflow 2.x) from what the ERP answered.
import type { NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ErpClient } from '../../../../nodes/shared/transport/client';
import type { ErpRequest } from '../../../../nodes/shared/transport/types';
import { useTestSandbox } from '../../../../tooling/harness/sandbox';
import { fakeContext, json, networkError, TOKEN } from '../fakes';
import type { Responder } from '../fakes';
import { clientFor, failureOf } from './clientFor';
import { probeOn, runProbe } from './probe';
import { useScriptedErp } from './scriptedErp';

const listContacts = { action: 'list contacts', noun: 'contact' };
const readContact = { action: 'read contact 1', noun: 'contact', id: 1 };
const get = (path: string, doing: ErpRequest['doing'] = listContacts): ErpRequest => ({ method: 'GET', path, doing, itemIndex: 0 });
const getContacts = { request: { method: 'GET' as const, path: '/contacts', doing: listContacts } };
const noRetries = { maxRetries: 0 };

/** The error of one request through the client over a scripted helper, in fake time (now = 1_700_000_000_000). */
async function errorOf(responder: Responder, request: ErpRequest = get('/contacts'), options = noRetries) {
	const { client } = await clientFor(responder, options);
	return await failureOf(client.request(request));
}

describe('failure declared from what the ERP answered, in n8n (probe on the wire)', () => {
	const sandbox = useTestSandbox();
	const probe = probeOn(sandbox);
	// A 429's wait holds every run against that ERP: these go to an ERP of their own (a token each), not the sandbox.
	const limited = useScriptedErp();
	const refusing = (retryAfter: string) => limited.answer(() => ({ status: 429, headers: { 'Retry-After': retryAfter }, body: { message: 'slow down' } }));

	it("429 with Retry-After: 120 → rate-limited with the ERP's wait", async () => {
		refusing('120');
		const result = await runProbe({ baseUrl: limited.baseUrl, calls: [getContacts], options: noRetries });
		expect(result.error).toMatchObject({ message: 'The ERP is still rate-limiting requests (429)', httpCode: '429' });
		expect((result.error as NodeApiError).failure).toEqual({ cause: 'rate-limited', retryAfterMs: 120_000 });
	});

	it('429 naming a wait beyond what the node may wait → rate-limited with that wait', async () => {
		refusing('3600');
		const result = await runProbe({ baseUrl: limited.baseUrl, calls: [getContacts] });
		expect(result.error).toMatchObject({ message: 'The ERP asks to wait 1 h before the next request (429)' });
		expect((result.error as NodeApiError).failure).toEqual({ cause: 'rate-limited', retryAfterMs: 3_600_000 });
	});

	it('5xx → temporarily-unavailable', async () => {
		await sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'status', status: 503 } });
		const result = await probe({ calls: [getContacts], options: noRetries });
		expect(result.error).toMatchObject({ message: 'The ERP failed with a server error (503)' });
		expect((result.error as NodeApiError).failure).toEqual({ cause: 'temporarily-unavailable' });
	});

	it('a dropped connection → temporarily-unavailable', async () => {
		await sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'drop' } });
		const result = await probe({ calls: [getContacts], options: noRetries });
		expect(result.error).toMatchObject({ message: 'The connection to the ERP broke before it answered' });
		expect((result.error as NodeApiError).failure).toEqual({ cause: 'temporarily-unavailable' });
	});

	it('a timeout → temporarily-unavailable', async () => {
		await sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'latency', delayMs: 2000 } });
		const result = await probe({ calls: [getContacts], options: { ...noRetries, timeoutMs: 200 } });
		expect(result.error).toMatchObject({ message: 'The ERP did not answer within 0.2 s' });
		expect((result.error as NodeApiError).failure).toEqual({ cause: 'temporarily-unavailable' });
	});

	it('connection refused → temporarily-unavailable', async () => {
		const result = await runProbe({ baseUrl: 'http://127.0.0.1:1/api/v1', calls: [getContacts], options: noRetries });
		expect(result.error).toMatchObject({ message: 'Could not connect to the ERP at 127.0.0.1:1: connection refused' });
		expect((result.error as NodeApiError).failure).toEqual({ cause: 'temporarily-unavailable' });
	});

	it('401 → credential-invalid', async () => {
		const result = await runProbe({ baseUrl: sandbox.baseUrl, apiToken: 'not-the-token', calls: [getContacts] });
		expect(result.error).toMatchObject({ message: 'The ERP rejected the API token (401)' });
		expect((result.error as NodeApiError).failure).toEqual({ cause: 'credential-invalid' });
	});

	it('403 on the resource → configuration-invalid', async () => {
		const request = { method: 'POST' as const, path: '/contacts', doing: { action: 'create the contact', noun: 'contact' }, body: { first_name: 'Ada', last_name: 'Lovelace' } };
		const result = await runProbe({ baseUrl: sandbox.baseUrl, apiToken: sandbox.readOnlyToken, calls: [{ request }] });
		expect(result.error).toMatchObject({ message: 'The API token is not allowed to create the contact (403)' });
		expect((result.error as NodeApiError).failure).toEqual({ cause: 'configuration-invalid' });
	});

	it('404 with nothing at the path (a Base URL that is not the API) → configuration-invalid', async () => {
		const baseUrl = sandbox.baseUrl.replace(/\/api\/v1$/, '/api/v2');
		const result = await runProbe({ baseUrl, apiToken: sandbox.token, calls: [getContacts] });
		expect(result.error).toMatchObject({ message: `Nothing answers at ${baseUrl}/contacts (404)` });
		expect((result.error as NodeApiError).failure).toEqual({ cause: 'configuration-invalid' });
	});

	it('an ERP that ignores the page parameter → configuration-invalid', async () => {
		await sandbox.admin.seed({ contacts: 120 });
		await sandbox.admin.setVariants(['page-ignored']);
		const result = await probe({ calls: [{ list: '/contacts' }] });
		expect(result.error).toMatchObject({ message: expect.stringMatching(/it seems to ignore the page parameter/) });
		expect((result.error as NodeApiError).failure).toEqual({ cause: 'configuration-invalid' });
	});

	it.each([
		['422, refused values', { method: 'POST' as const, path: '/contacts', doing: { action: 'create the contact', noun: 'contact' }, body: { last_name: 'Lovelace' } }, /^The ERP refused to create the contact \(422\)/],
		['404 of a record', { method: 'GET' as const, path: '/contacts/4242', doing: { action: 'read contact 4242', noun: 'contact', id: 4242 } }, /^Contact 4242 was not found \(404\)/],
	])('%s: the data is wrong, not the configuration, and no wait cures it → none', async (_, request, message) => {
		const result = await probe({ calls: [{ request }] });
		expect(result.error).toMatchObject({ name: 'NodeApiError', message: expect.stringMatching(message) });
		expect((result.error as NodeApiError).failure).toBeUndefined();
	});
});

describe('a success that is not the API (a scripted answer)', () => {
	const scripted = useScriptedErp();
	const html = '<html><head><title>Welcome</title></head><body>Our shop</body></html>';

	it('an HTML page listing contacts → configuration-invalid', async () => {
		scripted.answer(() => ({ status: 200, body: html }));
		const result = await runProbe({ baseUrl: scripted.baseUrl, calls: [{ list: '/contacts' }] });
		expect(result.error).toMatchObject({ message: 'The ERP answered /contacts with something that is not a list' });
		expect((result.error as NodeApiError).failure).toEqual({ cause: 'configuration-invalid' });
	});

	it('an HTML page for a record → configuration-invalid', async () => {
		scripted.answer(() => ({ status: 200, body: html }));
		const request = { method: 'GET' as const, path: '/contacts/1', doing: readContact, expect: 'record' as const };
		const result = await runProbe({ baseUrl: scripted.baseUrl, calls: [{ request }] });
		expect(result.error).toMatchObject({ message: 'The ERP answered success but sent no contact' });
		expect((result.error as NodeApiError).failure).toEqual({ cause: 'configuration-invalid' });
	});

	it('a create answered success without the record: it probably happened → none', async () => {
		scripted.answer(() => ({ status: 201, body: { success: true } }));
		const request = { method: 'POST' as const, path: '/contacts', doing: { action: 'create the contact', noun: 'contact' }, body: { first_name: 'Ada' }, expect: 'record' as const };
		const result = await runProbe({ baseUrl: scripted.baseUrl, calls: [{ request }] });
		expect(result.error).toMatchObject({ message: 'The ERP answered success but sent no contact' });
		expect((result.error as NodeApiError).failure).toBeUndefined();
	});
});

describe("the ERP's wait, exactly (fake time)", () => {
	const now = 1_700_000_000_000;

	it('Retry-After as an HTTP date → the wait and the instant it names', async () => {
		const at = now + 90_000;
		const error = await errorOf(() => json(429, {}, { 'retry-after': new Date(at).toUTCString() }));
		expect(error.failure).toEqual({ cause: 'rate-limited', retryAfterMs: 90_000, resetsAtEpochMs: at });
	});

	it('X-RateLimit-Reset in epoch seconds (no Retry-After) → the wait and the reset instant', async () => {
		const error = await errorOf(() => json(429, {}, { 'x-ratelimit-reset': String(now / 1000 + 45) }));
		expect(error.failure).toEqual({ cause: 'rate-limited', retryAfterMs: 45_000, resetsAtEpochMs: now + 45_000 });
	});

	it("the IETF draft's RateLimit-Reset, seconds from now → the wait only", async () => {
		const error = await errorOf(() => json(429, {}, { 'ratelimit-reset': '30' }));
		expect(error.failure).toEqual({ cause: 'rate-limited', retryAfterMs: 30_000 });
	});

	it('a 429 naming no wait → rate-limited alone', async () => {
		const error = await errorOf(() => json(429, {}));
		expect(error.failure).toEqual({ cause: 'rate-limited' });
	});

	it('a reset instant beyond the budget → the wait and the instant, at once', async () => {
		const at = now + 2 * 3_600_000;
		const error = await errorOf(() => json(429, {}, { 'x-ratelimit-reset': String(at / 1000) }), get('/contacts'), { maxRetries: 5 });
		expect(error.message).toBe('The ERP asks to wait 2 h before the next request (429)');
		expect(error.failure).toEqual({ cause: 'rate-limited', retryAfterMs: 2 * 3_600_000, resetsAtEpochMs: at });
	});

	it("a 5xx's reset header belongs to the rate limit: temporarily-unavailable without a wait", async () => {
		const error = await errorOf(() => json(503, {}, { 'retry-after': '3600', 'x-ratelimit-reset': String(now / 1000 + 3600) }));
		expect(error.failure).toEqual({ cause: 'temporarily-unavailable' });
	});
});

describe('a Base URL that cannot be the API', () => {
	it.each(['ENOTFOUND', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'CERT_HAS_EXPIRED', 'ERR_INVALID_URL'])('%s → configuration-invalid', async (code) => {
		const error = await errorOf(() => networkError(code), get('/contacts'), { maxRetries: 5 });
		expect(error.failure).toEqual({ cause: 'configuration-invalid' });
	});

	it('EAI_AGAIN (a DNS hiccup) → temporarily-unavailable', async () => {
		const error = await errorOf(() => networkError('EAI_AGAIN'));
		expect(error.failure).toEqual({ cause: 'temporarily-unavailable' });
	});

	it.each(['', 'erp.example.com/api/v1', 'ftp://erp.example.com/api/v1', 'https://erp.example.com/api/v1?x=1'])(
		'a credential Base URL "%s" → configuration-invalid',
		async (baseUrl) => {
			const { ctx } = fakeContext(() => json(200, {}), { baseUrl, apiToken: TOKEN });
			const error = await ErpClient.create(ctx, {}).then(
				() => undefined,
				(e: unknown) => e,
			);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect((error as NodeOperationError).failure).toEqual({ cause: 'configuration-invalid' });
		},
	);
});

describe('what else the error carries', () => {
	it('keeps message, description and httpCode, and serializes without the token', async () => {
		const body = { success: false, error: { message: `token ${TOKEN} is revoked` } };
		const error = await errorOf(() => json(401, body, { 'retry-after': '5' }));
		expect(error).toMatchObject({ message: 'The ERP rejected the API token (401)', httpCode: '401' });
		expect(error.description).toBe('Check the API Token in the ERP API credential: it may be mistyped, expired or revoked. The ERP said: token [redacted] is revoked');
		const serialized = JSON.stringify({ ...error, json: error.toJSON?.(), errorResponse: error.errorResponse });
		expect(serialized).toContain('"failure":{"cause":"credential-invalid"}');
		expect(serialized).not.toContain(TOKEN);
	});
});
