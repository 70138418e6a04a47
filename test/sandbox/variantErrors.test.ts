import axios, { type AxiosResponse } from 'axios';

import { useTestSandbox, type VariantName } from '../../tooling/harness/sandbox';

const sandbox = useTestSandbox();

/** The three failures every format is tried on: a validation failure, an unknown record, a missing token. */
async function failures(): Promise<{ invalid: AxiosResponse; missing: AxiosResponse; anonymous: AxiosResponse }> {
	const invalid = await sandbox.api.post('/contacts', { email: 'not-an-address' }, { responseType: 'text' });
	const missing = await sandbox.api.get('/contacts/999', { responseType: 'text' });
	const anonymous = await axios.get(`${sandbox.baseUrl}/contacts`, { validateStatus: () => true, responseType: 'text' });
	return { invalid, missing, anonymous };
}

const json = (response: AxiosResponse): unknown => JSON.parse(response.data as string);

async function withVariant(name: VariantName) {
	await sandbox.admin.setVariants([name]);
	return failures();
}

describe('error formats', () => {
	it('success-false-200: a validation failure is answered 200 with success false; other failures keep their status', async () => {
		const { invalid, missing, anonymous } = await withVariant('success-false-200');
		expect(invalid.status).toBe(200);
		expect(json(invalid)).toEqual({
			success: false,
			error: {
				code: 'validation_failed',
				message: expect.stringContaining('first_name'),
				fields: { first_name: ['is required'], email: [expect.stringContaining('e-mail')] },
			},
		});
		expect(missing.status).toBe(404);
		expect(json(missing)).toEqual({ success: false, error: { code: 'not_found', message: 'Contact 999 not found' } });
		expect(anonymous.status).toBe(401);
		expect(await sandbox.admin.records('contacts')).toEqual([]);
	});

	it('problem-json: RFC 7807 bodies with their own content type', async () => {
		const { invalid, missing, anonymous } = await withVariant('problem-json');
		expect(invalid.status).toBe(422);
		expect(invalid.headers['content-type']).toMatch(/^application\/problem\+json/);
		expect(json(invalid)).toEqual({
			type: 'about:blank',
			title: 'Unprocessable Entity',
			status: 422,
			detail: expect.stringContaining('first_name is required'),
			errors: [
				{ field: 'first_name', message: 'is required' },
				{ field: 'email', message: expect.stringContaining('e-mail') },
			],
		});
		expect(json(missing)).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'Contact 999 not found' });
		expect(anonymous.status).toBe(401);
		expect(anonymous.headers['www-authenticate']).toBe('Bearer');
		expect(json(anonymous)).toMatchObject({ status: 401, title: 'Unauthorized' });
	});

	it('errors-array: {message, errors: [{field, message}]}', async () => {
		const { invalid, missing } = await withVariant('errors-array');
		expect(invalid.status).toBe(422);
		expect(json(invalid)).toEqual({
			message: expect.stringContaining('first_name is required'),
			errors: [
				{ field: 'first_name', message: 'is required' },
				{ field: 'email', message: expect.stringContaining('e-mail') },
			],
		});
		expect(json(missing)).toEqual({ message: 'Contact 999 not found', errors: [] });
	});

	it('errors-object: {message, errors: {field: [...]}} on validation failures, {message} otherwise', async () => {
		const { invalid, missing } = await withVariant('errors-object');
		expect(json(invalid)).toEqual({
			message: expect.stringContaining('first_name is required'),
			errors: { first_name: ['is required'], email: [expect.stringContaining('e-mail')] },
		});
		expect(json(missing)).toEqual({ message: 'Contact 999 not found' });
	});

	it('plain-text-errors: text/plain sentences', async () => {
		const { invalid, missing, anonymous } = await withVariant('plain-text-errors');
		expect(invalid.status).toBe(422);
		expect(invalid.headers['content-type']).toMatch(/^text\/plain/);
		expect(invalid.data).toMatch(/^Validation failed: first_name is required; email must be/);
		expect(missing.data).toBe('Contact 999 not found');
		expect(anonymous.data).toBe('Missing header Authorization: Bearer <token>');
	});

	it('a queued fault with the JSON error body speaks the format too', async () => {
		await sandbox.admin.setVariants(['problem-json']);
		await sandbox.admin.queueFault({ fault: { kind: 'status', status: 503 } });
		const response = await sandbox.api.get('/contacts');
		expect(response.status).toBe(503);
		expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
		expect(response.data).toEqual({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: expect.any(String) });
	});

	it('the app rate limit answers in the format', async () => {
		await sandbox.admin.setVariants(['errors-object']);
		await sandbox.admin.setFaults({ rateLimit: { limit: 1, windowMs: 60_000 } });
		expect((await sandbox.api.get('/contacts')).status).toBe(200);
		const refused = await sandbox.api.get('/contacts');
		expect(refused.status).toBe(429);
		expect(refused.data).toEqual({ message: expect.stringMatching(/^Rate limit exceeded: retry after \d+ s$/) });
	});
});
