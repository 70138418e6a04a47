import axios, { type AxiosResponse } from 'axios';

import { startTestSandbox, useTestSandbox, type VariantName, waitFor } from '../../tooling/harness/sandbox';
import { VARIANT_NAMES } from '../../sandbox/variants';
import { createProduct, ISO_MS } from './fixtures';
import { startReceiver, useReceiver } from './receiver';

// Each variant (an ERP that chose otherwise than docs/api-assumptions.md) in one row: the one thing that makes it
// different, over real HTTP. What the nodes do with it: the last table of docs/api-assumptions.md.

const sandbox = useTestSandbox();
const receiver = useReceiver();

const ids = (response: AxiosResponse) => (response.data.data as Array<{ id: number }>).map((row) => row.id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const get = (path: string) => sandbox.api.get(path);
const text = (response: AxiosResponse) => (typeof response.data === 'string' ? JSON.parse(response.data) : response.data);
/** A create with first_name missing and a bad e-mail, answered as text to see the body as sent. */
const refused = () => sandbox.api.post('/contacts', { email: 'not-an-address' }, { responseType: 'text' });
const headerNames = (response: AxiosResponse, pattern: RegExp) => Object.keys(response.headers).filter((name) => pattern.test(name));
const secondsUntil = (epoch: unknown) => Number(epoch) - Date.now() / 1000;
const limit = (count: number) => sandbox.admin.setFaults({ rateLimit: { limit: count, windowMs: 30_000 } });
const OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const FIELD_ERRORS = [{ field: 'first_name', message: 'is required' }, { field: 'email', message: expect.stringContaining('e-mail') }];

/** Each variant's distinguishing behaviour; run after `seed({contacts: 60})` and the variant switched on. */
const ROWS: Record<VariantName, () => Promise<void>> = {
	'small-pages': async () => {
		expect((await get('/contacts')).data.meta).toEqual({ page: 1, per_page: 10, total: 60 });
		const capped = await get('/contacts?per_page=100&page=2');
		expect([capped.data.meta, ids(capped)]).toEqual([{ page: 2, per_page: 20, total: 60 }, range(21, 40)]);
	},
	'strict-paging': async () => {
		expect((await get('/contacts?per_page=51')).data).toEqual({ success: false, error: { code: 'validation_failed', message: expect.stringContaining('per_page'), fields: { per_page: ['must be at most 50'] } } });
		expect(ids(await get('/contacts?per_page=50&page=2'))).toEqual(range(51, 60));
	},
	'strict-paging-400': async () => {
		const response = await get('/contacts?per_page=51');
		expect([response.status, response.data]).toEqual([400, { success: false, error: { code: 'bad_request', message: 'per_page must be between 1 and 50' } }]);
	},
	'fixed-pages': async () => {
		const page = await get('/contacts?per_page=10&page=2');
		expect([page.data.meta, ids(page)]).toEqual([{ page: 2, per_page: 25, total: 60 }, range(26, 50)]);
	},
	'page-ignored': async () => {
		const page = await get('/contacts?page=3');
		expect([page.data.meta, ids(page)]).toEqual([{ page: 3, per_page: 25, total: 60 }, range(1, 25)]);
	},
	'newest-first': async () => {
		expect(ids(await get('/contacts?per_page=5'))).toEqual(range(56, 60).reverse());
		expect(ids(await get('/contacts?per_page=5&sort=id'))).toEqual(range(1, 5));
	},
	'no-total': async () => {
		const page = await get('/contacts?per_page=50&page=2');
		expect([page.data.meta, ids(page)]).toEqual([{ page: 2, per_page: 50 }, range(51, 60)]);
	},
	'ignored-filters': async () => {
		expect((await get('/contacts?email=nobody@example.com&created_after=yesterday')).data.meta.total).toBe(60);
		expect(ids(await get('/contacts?search=zzz&sort=-id&per_page=3'))).toEqual([60, 59, 58]);
	},
	'replace-put': async () => {
		await sandbox.api.put('/contacts/1', { notes: 'VIP', custom_fields: { tier: 'gold', region: 'north' } });
		const replaced = await sandbox.api.put('/contacts/1', { first_name: 'Anna', custom_fields: { tier: 'silver' } });
		expect(replaced.data.data).toMatchObject({ first_name: 'Anna', last_name: null, email: null, notes: null, custom_fields: { tier: 'silver' } });
		expect((await sandbox.api.put('/contacts/1', { email: 'only@example.com' })).data.error.fields).toEqual({ first_name: ['is required'] });
	},
	'success-false-200': async () => {
		const response = await refused();
		expect([response.status, text(response)]).toEqual([200, { success: false, error: { code: 'validation_failed', message: expect.any(String), fields: { first_name: ['is required'], email: [expect.any(String)] } } }]);
		expect((await get('/contacts/999')).status).toBe(404);
	},
	'problem-json': async () => {
		const response = await refused();
		expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
		expect(text(response)).toEqual({ type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail: expect.stringContaining('first_name is required'), errors: FIELD_ERRORS });
		expect(text(await get('/contacts/999'))).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'Contact 999 not found' });
	},
	'errors-array': async () => {
		expect(text(await refused())).toEqual({ message: expect.stringContaining('first_name is required'), errors: FIELD_ERRORS });
		expect((await get('/contacts/999')).data).toEqual({ message: 'Contact 999 not found', errors: [] });
	},
	'errors-object': async () => {
		expect(text(await refused())).toEqual({ message: expect.stringContaining('first_name is required'), errors: { first_name: ['is required'], email: [expect.any(String)] } });
		expect((await get('/contacts/999')).data).toEqual({ message: 'Contact 999 not found' });
	},
	'plain-text-errors': async () => {
		const response = await refused();
		expect([response.status, response.headers['content-type'], response.data]).toEqual([422, expect.stringMatching(/^text\/plain/), expect.stringMatching(/^Validation failed: first_name is required; email must be/)]);
		expect((await axios.get(`${sandbox.baseUrl}/contacts`, { validateStatus: () => true })).data).toBe('Missing header Authorization: Bearer <token>');
	},
	'lenient-rules': async () => {
		const product = await sandbox.api.post('/products', { sku: 'PAL/2024 Ü', name: 'N'.repeat(1000), currency: 'usdt', unit_price: 0.1234 });
		expect(product.data.data).toMatchObject({ sku: 'PAL/2024 Ü', currency: 'usdt', unit_price: 0.1234 });
		const employee = await sandbox.api.post('/employees', { first_name: 'I', last_name: 'J', email: 'ij@example.com', employment_type: 'intern', salary: 0 });
		expect([employee.status, (await sandbox.api.post('/products', { name: 'No SKU' })).data.error.fields]).toEqual([201, { sku: ['is required'] }]);
	},
	'tight-rules': async () => {
		expect((await sandbox.api.post('/contacts', { first_name: 'A'.repeat(20) })).status).toBe(201);
		expect((await sandbox.api.post('/contacts', { first_name: 'A'.repeat(21) })).data.error.fields).toEqual({ first_name: ['must be at most 20 characters'] });
	},
	'bare-create': async () => {
		const response = await sandbox.api.post('/contacts', { first_name: 'Anna' });
		expect([response.status, response.data, response.headers.location]).toEqual([201, { success: true }, '/api/v1/contacts/61']);
		expect((await get('/contacts/61')).data.data.first_name).toBe('Anna');
	},
	'created-200': async () => {
		const response = await sandbox.api.post('/contacts', { first_name: 'Anna' });
		expect([response.status, response.data.data]).toEqual([200, { id: 61, first_name: 'Anna', created_at: expect.stringMatching(ISO_MS) }]);
	},
	'delete-204': async () => {
		const response = await sandbox.api.delete('/contacts/1', { responseType: 'text' });
		expect([response.status, response.data, response.headers['content-type']]).toEqual([204, '', undefined]);
		expect((await get('/contacts/1')).status).toBe(404);
	},
	'soft-delete': async () => {
		const contact = (await get('/contacts/1')).data.data;
		expect((await sandbox.api.delete('/contacts/1')).data).toEqual({ success: true, data: { ...contact, deleted_at: expect.stringMatching(ISO_MS) } });
		expect([(await get('/contacts/1')).status, (await get('/contacts')).data.meta.total]).toEqual([404, 59]);
	},
	'gateway-headers': async () => {
		await sandbox.admin.queueFault({ fault: { kind: 'html' } });
		for (const response of [await get('/contacts'), await get('/contacts')]) {
			expect([response.headers['x-ratelimit-limit'], response.headers['retry-after']]).toEqual(['100000', undefined]);
			expect(secondsUntil(response.headers['x-ratelimit-reset'])).toBeGreaterThan(3000);
		}
	},
	'ietf-ratelimit': async () => {
		await limit(1);
		const allowed = await get('/contacts');
		expect([allowed.headers['ratelimit-limit'], allowed.headers['ratelimit-remaining'], headerNames(allowed, /^x-ratelimit/)]).toEqual(['1', '0', []]);
		const retryAfter = (await get('/contacts')).headers['retry-after'] as string;
		expect(retryAfter).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
		expect(Date.parse(retryAfter) - Date.now()).toBeGreaterThan(20_000);
	},
	'silent-rate-limit': async () => {
		await limit(1);
		const [allowed, refusal] = [await get('/contacts'), await get('/contacts')];
		expect([allowed.status, refusal.status, headerNames(allowed, /ratelimit|retry-after/), headerNames(refusal, /ratelimit|retry-after/)]).toEqual([200, 429, [], []]);
	},
	'retry-after-only': async () => {
		await limit(1);
		const [allowed, refusal] = [await get('/contacts'), await get('/contacts')];
		expect([headerNames(allowed, /ratelimit|retry-after/), headerNames(refusal, /ratelimit|retry-after/), refusal.headers['retry-after']]).toEqual([[], ['retry-after'], expect.stringMatching(/^(29|30)$/)]);
	},
	'no-retry-after': async () => {
		await limit(1);
		await get('/contacts');
		const refusal = await get('/contacts');
		expect([refusal.status, refusal.headers['retry-after'], refusal.headers['x-ratelimit-remaining']]).toEqual([429, undefined, '0']);
		expect(secondsUntil(refusal.headers['x-ratelimit-reset'])).toBeGreaterThan(20);
	},
	'offset-timestamps': async () => {
		const stored = await sandbox.admin.record('contacts', 1);
		const shown = (await get('/contacts/1')).data.data;
		expect([shown.created_at, shown.updated_at]).toEqual([expect.stringMatching(OFFSET), expect.stringMatching(OFFSET)]);
		expect(Date.parse(shown.created_at)).toBe(Math.floor(Date.parse(String(stored?.created_at)) / 1000) * 1000);
		const before = new Date(Date.parse(shown.created_at) + 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
		expect((await sandbox.api.get('/contacts', { params: { created_before: before, per_page: 100 } })).data.meta.total).toBeGreaterThan(0);
	},
	'no-stock-in-list': async () => {
		const product = await createProduct(sandbox.api);
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 4 });
		for (const shown of [(await get('/products')).data.data[0], (await get(`/products/${product.id}`)).data.data]) expect(shown).not.toHaveProperty('stock_total');
		expect((await get(`/products/${product.id}/stock`)).data.data[0].quantity).toBe(4);
		expect(ids(await get('/products?low_stock=true'))).toEqual([product.id]);
	},
	...deliveryRows(),
};

/** The variants of webhook deliveries: a contact.created emitted to the receiver, its first attempt answered 500. */
function deliveryRows() {
	async function delivered(): Promise<{ bodies: Array<Record<string, unknown>>; headers: Array<Record<string, unknown>>; at: string; id: string }> {
		await sandbox.admin.addWebhook({ url: receiver.url });
		receiver.answerWith([500]);
		const emitted = await sandbox.admin.emit('contact.created');
		await waitFor(() => receiver.received.length >= 2);
		expect(receiver.received[1].raw).toBe(receiver.received[0].raw);
		return { bodies: receiver.received.map((r) => JSON.parse(r.raw)), headers: receiver.received.map((r) => r.headers), at: emitted.timestamp, id: emitted.deliveryIds[0] };
	}
	const form = (pattern: RegExp, instant: (at: string) => number = (at) => Date.parse(`${at.slice(0, 19)}Z`)) => async () => {
		const { bodies, at } = await delivered();
		expect(bodies[0].timestamp).toMatch(pattern);
		expect(Date.parse(bodies[0].timestamp as string)).toBe(instant(at));
	};
	const ID_HEADERS = /^(x-erp-delivery|webhook-id|x-delivery-id|x-event-id|x-webhook-id|idempotency-key)$/;
	return {
		'webhook-timestamp-seconds': form(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
		'webhook-timestamp-offset': form(OFFSET),
		'webhook-timestamp-compact': form(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/),
		'webhook-timestamp-micros': form(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/, Date.parse),
		'webhook-timestamp-unparseable': async () => {
			const { bodies, at } = await delivered();
			expect(bodies[0].timestamp).toBe(`${at.slice(8, 10)}.${at.slice(5, 7)}.${at.slice(0, 4)} um ${at.slice(11, 19)} Uhr`);
		},
		'webhook-timestamp-missing': async () => expect(Object.keys((await delivered()).bodies[0]).sort()).toEqual(['data', 'event']),
		'webhook-id-header': async () => {
			const { headers, id } = await delivered();
			expect(headers.map((h) => Object.keys(h).filter((name) => ID_HEADERS.test(name)))).toEqual([['webhook-id'], ['webhook-id']]);
			expect(headers.map((h) => h['webhook-id'])).toEqual([id, id]);
		},
		'no-delivery-id': async () => {
			const { headers } = await delivered();
			expect(headers.map((h) => Object.keys(h).filter((name) => ID_HEADERS.test(name)))).toEqual([[], []]);
		},
		'future-events': async () => {
			const filtered = await startReceiver();
			try {
				await sandbox.admin.addWebhook({ url: filtered.url, events: ['contact.created'] });
				await sandbox.admin.addWebhook({ url: receiver.url });
				expect((await sandbox.admin.emit('invoice.created', { invoice_id: 7 })).deliveryIds).toHaveLength(1);
				await waitFor(() => receiver.received.length >= 1);
				expect([receiver.received[0].headers['x-erp-event'], receiver.received[0].body.data, filtered.received]).toEqual(['invoice.created', { invoice_id: 7 }, []]);
				expect((await axios.post(`${sandbox.url}/__sandbox/events`, { event: 'Invoice Created!' }, { validateStatus: () => true })).status).toBe(422);
			} finally {
				await filtered.close();
			}
		},
	} satisfies Partial<Record<VariantName, () => Promise<void>>>;
}

describe('each variant', () => {
	it.each(VARIANT_NAMES)('%s', async (variant) => {
		await sandbox.admin.seed({ contacts: 60 });
		expect((await sandbox.admin.setVariants([variant])).variants).toEqual([variant]);
		await ROWS[variant]();
	});
});

describe('choosing variants', () => {
	const putVariant = (body: unknown) => axios.put(`${sandbox.url}/__sandbox/variant`, body, { validateStatus: () => true });

	it('combines variants of different settings; GET shows them; DELETE and a reset go back to none', async () => {
		await sandbox.admin.seed({ contacts: 60 });
		const chosen = await sandbox.admin.setVariants(['strict-paging', 'no-total']);
		expect(await sandbox.admin.variant()).toEqual(chosen);
		expect([(await get('/contacts?per_page=51')).status, (await get('/contacts?per_page=50')).data.meta]).toEqual([422, { page: 1, per_page: 50 }]);
		expect((await sandbox.admin.resetVariants()).variants).toEqual([]);
		expect((await get('/contacts?per_page=51')).data.meta).toEqual({ page: 1, per_page: 51, total: 60 });
		await sandbox.admin.setVariants(['no-total']);
		await sandbox.admin.reset();
		expect((await sandbox.admin.variant()).variants).toEqual([]);
	});

	it('refuses two that set one setting differently, or an unknown name, keeping the ones in force', async () => {
		await sandbox.admin.setVariants(['no-total']);
		expect((await putVariant({ variants: ['small-pages', 'strict-paging'] })).data.error.fields.variants[0]).toMatch(/small-pages.*strict-paging.*maxPerPage/);
		expect((await putVariant({ variants: ['sap-mode'] })).data.error.fields.variants[0]).toMatch(/unknown variant sap-mode/);
		expect((await sandbox.admin.variant()).variants).toEqual(['no-total']);
	});

	it('chosen at start: in force from the first request and again after a reset; a bad choice fails the start', async () => {
		const started = await startTestSandbox({ variants: ['no-total'] });
		try {
			await started.admin.setVariants([]);
			await started.admin.reset();
			expect((await started.api.get('/contacts')).data.meta).toEqual({ page: 1, per_page: 25 });
		} finally {
			await started.close();
		}
		await expect(startTestSandbox({ variants: ['problem-json', 'errors-array'] })).rejects.toThrow(/errorFormat/);
	});
});
