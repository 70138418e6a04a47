import type { AxiosResponse } from 'axios';

import { useTestSandbox } from '../../tooling/harness/sandbox';
import { createProduct, createContact, createEmployee, createInvoice } from './fixtures';

const sandbox = useTestSandbox();

describe('paging variants', () => {
	beforeEach(() => sandbox.admin.seed({ contacts: 60 }));

	interface Page {
		status: number;
		ids: number[];
		meta: Record<string, number>;
		body: { success: boolean; error?: { code: string; message: string; fields?: Record<string, string[]> } };
	}

	async function get(path: string): Promise<Page> {
		const response = await sandbox.api.get(path);
		return { status: response.status, ids: (response.data.data ?? []).map((row: { id: number }) => row.id), meta: response.data.meta, body: response.data };
	}

	/** Stored contact ids n..m (1-based, inclusive): the seed gives ids 1..60. */
	const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

	describe('small-pages', () => {
		beforeEach(() => sandbox.admin.setVariants(['small-pages']));

		it('defaults to 10 a page', async () => {
			const page = await get('/contacts');
			expect(page.meta).toEqual({ page: 1, per_page: 10, total: 60 });
			expect(page.ids).toEqual(range(1, 10));
		});

		it('caps a larger per_page to 20 silently, and says so in meta', async () => {
			const page = await get('/contacts?per_page=100&page=2');
			expect(page.status).toBe(200);
			expect(page.meta).toEqual({ page: 2, per_page: 20, total: 60 });
			expect(page.ids).toEqual(range(21, 40));
		});

		it('honours a size up to 20', async () => {
			expect((await get('/contacts?per_page=20')).ids).toEqual(range(1, 20));
			expect((await get('/contacts?per_page=3&page=4')).ids).toEqual(range(10, 12));
		});
	});

	describe('strict-paging', () => {
		beforeEach(() => sandbox.admin.setVariants(['strict-paging']));

		it('refuses per_page above 50 with a 422 naming per_page', async () => {
			const page = await get('/contacts?per_page=100');
			expect(page.status).toBe(422);
			expect(page.body).toEqual({
				success: false,
				error: { code: 'validation_failed', message: expect.stringContaining('per_page'), fields: { per_page: ['must be at most 50'] } },
			});
		});

		it('serves 50 and the default 25', async () => {
			expect((await get('/contacts?per_page=50&page=2')).ids).toEqual(range(51, 60));
			expect((await get('/contacts')).meta).toEqual({ page: 1, per_page: 25, total: 60 });
		});

		it('applies to every list, stock rows included', async () => {
			const product = await createProduct(sandbox.api);
			expect((await get(`/products/${product.id}/stock?per_page=51`)).status).toBe(422);
			expect((await get('/invoices?per_page=51')).status).toBe(422);
		});
	});

	describe('strict-paging-400', () => {
		beforeEach(() => sandbox.admin.setVariants(['strict-paging-400']));

		it('refuses per_page above 50 with a 400 and a plain message', async () => {
			const page = await get('/contacts?per_page=51');
			expect(page.status).toBe(400);
			expect(page.body).toEqual({ success: false, error: { code: 'bad_request', message: 'per_page must be between 1 and 50' } });
			expect((await get('/contacts?per_page=50')).ids).toHaveLength(50);
		});
	});

	describe('fixed-pages', () => {
		beforeEach(() => sandbox.admin.setVariants(['fixed-pages']));

		it.each(['per_page=10', 'per_page=100', 'per_page=abc', ''])('pages by 25 whatever per_page says (%s)', async (query) => {
			const page = await get(`/contacts?${query}&page=2`);
			expect(page.status).toBe(200);
			expect(page.meta).toEqual({ page: 2, per_page: 25, total: 60 });
			expect(page.ids).toEqual(range(26, 50));
		});
	});

	describe('page-ignored', () => {
		beforeEach(() => sandbox.admin.setVariants(['page-ignored']));

		it('answers every page with the first one, echoing the page asked for and the true total', async () => {
			const first = await get('/contacts?per_page=25');
			const third = await get('/contacts?per_page=25&page=3');
			expect(third.ids).toEqual(first.ids);
			expect(third.ids).toEqual(range(1, 25));
			expect(third.meta).toEqual({ page: 3, per_page: 25, total: 60 });
			expect((await get('/contacts?page=99')).ids).toEqual(range(1, 25));
		});
	});

	describe('newest-first', () => {
		beforeEach(() => sandbox.admin.setVariants(['newest-first']));

		it('lists highest id first when no sort is asked; an asked sort still wins', async () => {
			const first = await get('/contacts?per_page=50');
			expect(first.ids).toEqual(range(11, 60).reverse());
			expect((await get('/contacts?per_page=50&page=2')).ids).toEqual(range(1, 10).reverse());
			expect((await get('/contacts?per_page=5&sort=id')).ids).toEqual(range(1, 5));
		});
	});

	describe('no-total', () => {
		beforeEach(() => sandbox.admin.setVariants(['no-total']));

		it('gives meta with page and per_page only, on every list', async () => {
			const page = await get('/contacts?per_page=50&page=2');
			expect(page.meta).toEqual({ page: 2, per_page: 50 });
			expect(page.ids).toEqual(range(51, 60));
			expect((await get('/contacts?page=3&per_page=50')).meta).toEqual({ page: 3, per_page: 50 });
			const product = await createProduct(sandbox.api);
			expect((await get(`/products/${product.id}/stock`)).meta).toEqual({ page: 1, per_page: 25 });
		});
	});
});

const ids = async (path: string): Promise<number[]> => {
	const response = await sandbox.api.get(path);
	expect(response.status).toBe(200);
	return response.data.data.map((row: { id: number }) => row.id);
};

describe('ignored-filters', () => {
	it('returns every record whatever the filters say, on every list', async () => {
		const anna = await createContact(sandbox.api, { email: 'anna@example.com' });
		const ben = await createContact(sandbox.api, { first_name: 'Ben', email: 'ben@example.com', company: 'Other Ltd' });
		const invoice = await createInvoice(sandbox.api, anna.id);
		const chair = await createProduct(sandbox.api, { sku: 'CHAIR-1' });
		const desk = await createProduct(sandbox.api, { sku: 'DESK-1', name: 'Desk', active: false });
		const lukas = await createEmployee(sandbox.api);
		const mia = await createEmployee(sandbox.api, { first_name: 'Mia', email: 'mia@example.com', employment_type: 'contractor' });
		expect(await ids('/contacts?email=ben@example.com')).toEqual([ben.id]);
		await sandbox.admin.setVariants(['ignored-filters']);

		expect(await ids('/contacts?email=ben@example.com')).toEqual([anna.id, ben.id]);
		expect(await ids('/contacts?search=nobody&company=None')).toEqual([anna.id, ben.id]);
		expect(await ids('/invoices?status=paid&contact_id=999')).toEqual([invoice.id]);
		expect(await ids('/products?sku=DESK-1&active=true')).toEqual([chair.id, desk.id]);
		expect(await ids('/employees?email=mia@example.com&employment_type=full_time')).toEqual([lukas.id, mia.id]);
	});

	it('does not even read the filter values (no 400 for a malformed one)', async () => {
		await createContact(sandbox.api);
		await sandbox.admin.setVariants(['ignored-filters']);
		expect((await sandbox.api.get('/invoices?contact_id=abc&due_before=tomorrow')).status).toBe(200);
		expect((await sandbox.api.get('/contacts?created_after=yesterday')).data.meta.total).toBe(1);
	});

	it('still pages and sorts', async () => {
		await sandbox.admin.seed({ contacts: 30 });
		await sandbox.admin.setVariants(['ignored-filters']);
		const response = await sandbox.api.get('/contacts?search=zzz&sort=-id&per_page=10&page=2');
		expect(response.data.meta).toEqual({ page: 2, per_page: 10, total: 30 });
		expect(response.data.data.map((c: { id: number }) => c.id)).toEqual([20, 19, 18, 17, 16, 15, 14, 13, 12, 11]);
	});
});

describe('no-stock-in-list', () => {
	it('product records carry no stock_total anywhere; the stock rows and the low_stock filter still know it', async () => {
		const chair = await createProduct(sandbox.api, { low_stock_threshold: 10 });
		await sandbox.admin.setStock({ product_id: chair.id, warehouse_id: 1, quantity: 4 });
		expect((await sandbox.api.get('/products')).data.data[0].stock_total).toBe(4);
		await sandbox.admin.setVariants(['no-stock-in-list']);

		const listed = (await sandbox.api.get('/products')).data.data;
		expect(listed.map((p: { id: number }) => p.id)).toEqual([chair.id]);
		expect(listed[0]).not.toHaveProperty('stock_total');
		expect((await sandbox.api.get(`/products/${chair.id}`)).data.data).not.toHaveProperty('stock_total');
		expect((await sandbox.api.put(`/products/${chair.id}`, { name: 'Chair' })).data.data).not.toHaveProperty('stock_total');
		const desk = (await sandbox.api.post('/products', { sku: 'DESK-1', name: 'Desk' })).data.data;
		expect(desk).not.toHaveProperty('stock_total');
		expect(desk.sku).toBe('DESK-1');

		const rows = (await sandbox.api.get(`/products/${chair.id}/stock`)).data.data as Array<{ quantity: number }>;
		expect(rows.reduce((sum, row) => sum + row.quantity, 0)).toBe(4);
		expect((await sandbox.api.get('/products', { params: { low_stock: true } })).data.data.map((p: { id: number }) => p.id)).toEqual([chair.id, desk.id]);
	});
});

const header = (response: AxiosResponse, name: string): string | undefined => response.headers[name.toLowerCase()] as string | undefined;

/** Seconds from now until an epoch-seconds header value. */
const secondsUntilEpoch = (value: string | undefined): number => Number(value) - Date.now() / 1000;

/** A GET of /contacts with the client's clock read before and after it, to bound times the answer names. */
async function timedGet(): Promise<{ response: AxiosResponse; asked: number; answered: number }> {
	const asked = Date.now();
	const response = await sandbox.api.get('/contacts');
	return { response, asked, answered: Date.now() };
}

describe('gateway-headers', () => {
	beforeEach(() => sandbox.admin.setVariants(['gateway-headers']));

	it('puts an hour-long quota on every answer, counting down', async () => {
		const first = await sandbox.api.get('/contacts');
		const second = await sandbox.api.get('/contacts/999');
		expect(second.status).toBe(404);
		expect(header(first, 'X-RateLimit-Limit')).toBe('100000');
		expect(Number(header(second, 'X-RateLimit-Remaining'))).toBe(Number(header(first, 'X-RateLimit-Remaining')) - 1);
		// The window opened with the first request: its reset is (nearly) an hour away, far beyond any retry.
		expect(secondsUntilEpoch(header(second, 'X-RateLimit-Reset'))).toBeGreaterThan(3000);
		expect(secondsUntilEpoch(header(second, 'X-RateLimit-Reset'))).toBeLessThanOrEqual(3601);
	});

	it.each([
		['a JSON 500 before the API', { kind: 'status', status: 500 }, 'GET'],
		['an HTML 502 page', { kind: 'html' }, 'GET'],
		['a 503 after a committed write', { kind: 'status', status: 503 }, 'POST'],
	] as const)('carries it on %s too', async (_label, fault, method) => {
		await sandbox.admin.queueFault({ fault });
		const response = method === 'GET' ? await sandbox.api.get('/contacts') : await sandbox.api.post('/contacts', { first_name: 'Anna' });
		expect(response.status).toBeGreaterThanOrEqual(500);
		expect(header(response, 'X-RateLimit-Limit')).toBe('100000');
		expect(secondsUntilEpoch(header(response, 'X-RateLimit-Reset'))).toBeGreaterThan(3000);
		expect(header(response, 'Retry-After')).toBeUndefined();
	});

	it('on random faults as well', async () => {
		await sandbox.admin.setFaults({ errorRate: 1, errorStatus: 502, errorBody: 'html' });
		const response = await sandbox.api.get('/products');
		expect(response.status).toBe(502);
		expect(secondsUntilEpoch(header(response, 'X-RateLimit-Reset'))).toBeGreaterThan(3000);
	});

	it("leaves the ERP's own 429 its own short Retry-After", async () => {
		await sandbox.admin.setFaults({ rateLimit: { limit: 1, windowMs: 20_000 } });
		await sandbox.api.get('/contacts');
		const refused = await sandbox.api.get('/contacts');
		expect(refused.status).toBe(429);
		expect(Number(header(refused, 'Retry-After'))).toBeLessThanOrEqual(20);
		expect(secondsUntilEpoch(header(refused, 'X-RateLimit-Reset'))).toBeGreaterThan(3000);
	});

	it('is not there by default: an injected fault carries no rate-limit headers', async () => {
		await sandbox.admin.setVariants([]);
		await sandbox.admin.queueFault({ fault: { kind: 'status', status: 500 } });
		expect(header(await sandbox.api.get('/contacts'), 'X-RateLimit-Reset')).toBeUndefined();
	});
});

describe('ietf-ratelimit', () => {
	beforeEach(async () => {
		await sandbox.admin.setVariants(['ietf-ratelimit']);
		await sandbox.admin.setFaults({ rateLimit: { limit: 2, windowMs: 30_000 } });
	});

	it('reports RateLimit-Limit/-Remaining/-Reset (seconds from now) instead of the X- headers', async () => {
		const response = await sandbox.api.get('/contacts');
		expect(header(response, 'RateLimit-Limit')).toBe('2');
		expect(header(response, 'RateLimit-Remaining')).toBe('1');
		expect(Number(header(response, 'RateLimit-Reset'))).toBeGreaterThanOrEqual(1);
		expect(Number(header(response, 'RateLimit-Reset'))).toBeLessThanOrEqual(30);
		expect(Object.keys(response.headers).filter((name) => name.startsWith('x-ratelimit'))).toEqual([]);
	});

	it('answers a 429 with Retry-After as an HTTP date no earlier than the reset', async () => {
		await sandbox.api.get('/contacts');
		await sandbox.api.get('/contacts');
		const { response: refused, asked, answered } = await timedGet();
		expect(refused.status).toBe(429);
		const retryAfter = header(refused, 'Retry-After') as string;
		expect(retryAfter).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
		expect(Date.parse(retryAfter)).toBeGreaterThanOrEqual(asked + Number(header(refused, 'RateLimit-Reset')) * 1000);
		expect(Date.parse(retryAfter)).toBeLessThanOrEqual(answered + 32_000);
	});

	it('gives a queued 429 without its own wait an HTTP date too', async () => {
		await sandbox.admin.queueFault({ fault: { kind: 'rateLimit' } });
		const { response: refused, asked, answered } = await timedGet();
		expect(refused.status).toBe(429);
		const until = Date.parse(header(refused, 'Retry-After') as string);
		expect(until).toBeGreaterThan(asked);
		expect(until).toBeLessThanOrEqual(answered + 2000);
	});
});

describe('silent-rate-limit', () => {
	beforeEach(async () => {
		await sandbox.admin.setVariants(['silent-rate-limit']);
		await sandbox.admin.setFaults({ rateLimit: { limit: 1, windowMs: 30_000 } });
	});

	it('still limits, but says nothing of it: no rate-limit header on an answer or on the 429, no Retry-After', async () => {
		const allowed = await sandbox.api.get('/contacts');
		const refused = await sandbox.api.get('/contacts');
		expect([allowed.status, refused.status]).toEqual([200, 429]);
		for (const response of [allowed, refused]) {
			expect(Object.keys(response.headers).filter((name) => /ratelimit|retry-after/.test(name))).toEqual([]);
		}
	});
});

describe('retry-after-only', () => {
	beforeEach(async () => {
		await sandbox.admin.setVariants(['retry-after-only']);
		await sandbox.admin.setFaults({ rateLimit: { limit: 1, windowMs: 30_000 } });
	});

	it('names nothing but the wait of its 429, in Retry-After (whole seconds up to the reset): no count or reset header', async () => {
		const allowed = await sandbox.api.get('/contacts');
		const refused = await sandbox.api.get('/contacts');
		expect([allowed.status, refused.status]).toEqual([200, 429]);
		expect(Object.keys(allowed.headers).filter((name) => /ratelimit|retry-after/.test(name))).toEqual([]);
		expect(Object.keys(refused.headers).filter((name) => /ratelimit|retry-after/.test(name))).toEqual(['retry-after']);
		expect(Number(header(refused, 'Retry-After'))).toBeGreaterThanOrEqual(29);
		expect(Number(header(refused, 'Retry-After'))).toBeLessThanOrEqual(30);
	});
});

describe('no-retry-after', () => {
	beforeEach(() => sandbox.admin.setVariants(['no-retry-after']));

	it('answers a 429 without Retry-After, naming the reset in X-RateLimit-Reset (epoch seconds)', async () => {
		await sandbox.admin.setFaults({ rateLimit: { limit: 1, windowMs: 30_000 } });
		await sandbox.api.get('/contacts');
		const refused = await sandbox.api.get('/contacts');
		expect(refused.status).toBe(429);
		expect(header(refused, 'Retry-After')).toBeUndefined();
		expect(header(refused, 'X-RateLimit-Remaining')).toBe('0');
		expect(secondsUntilEpoch(header(refused, 'X-RateLimit-Reset'))).toBeGreaterThan(0);
		expect(secondsUntilEpoch(header(refused, 'X-RateLimit-Reset'))).toBeLessThanOrEqual(31);
	});

	it('a queued 429 without its own wait names a reset one second on', async () => {
		await sandbox.admin.queueFault({ fault: { kind: 'rateLimit' } });
		const { response: refused, asked, answered } = await timedGet();
		expect(header(refused, 'Retry-After')).toBeUndefined();
		const reset = Number(header(refused, 'X-RateLimit-Reset')) * 1000;
		expect(reset).toBeGreaterThan(asked);
		expect(reset).toBeLessThanOrEqual(answered + 2000);
	});

	it('a queued 429 with an explicit retryAfter still sends it', async () => {
		await sandbox.admin.queueFault({ fault: { kind: 'rateLimit', retryAfter: 5 } });
		expect(header(await sandbox.api.get('/contacts'), 'Retry-After')).toBe('5');
	});
});
