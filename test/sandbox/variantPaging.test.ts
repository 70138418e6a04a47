import { useTestSandbox } from '../../tooling/harness/sandbox';
import { createProduct } from './fixtures';

const sandbox = useTestSandbox();

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
