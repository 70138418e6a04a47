import { startTestSandbox, type TestSandbox } from '../../tooling/harness/sandbox';
import { createContact, createProduct } from './fixtures';

let sandbox: TestSandbox;

beforeAll(async () => {
	sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.admin.reset());

type Page = { success: boolean; data: Array<{ id: number }>; meta: { page: number; per_page: number; total: number } };

const page = async (path: string): Promise<Page> => {
	const response = await sandbox.api.get<Page>(path);
	expect(response.status).toBe(200);
	return response.data;
};

const ids = (p: Page) => p.data.map((row) => row.id);

async function storedIds(): Promise<number[]> {
	return (await sandbox.admin.records('contacts')).map((c) => c.id);
}

describe.each(['/contacts', '/invoices', '/products', '/employees'])('GET %s paging', (path) => {
	it('answers an empty store with data [] and total 0, default page 1 of 25', async () => {
		expect(await page(path)).toEqual({ success: true, data: [], meta: { page: 1, per_page: 25, total: 0 } });
	});

	it('answers per_page above 100 with 100 records and meta.per_page 100', async () => {
		await sandbox.admin.seed({ contacts: 150, invoices: 150, products: 150, employees: 150 });
		const p = await page(`${path}?per_page=500`);
		expect(p.meta).toEqual({ page: 1, per_page: 100, total: 150 });
		expect(p.data).toHaveLength(100);
	});
});

describe('GET /contacts paging boundaries', () => {
	it('defaults to page 1 of 25 in ascending id order', async () => {
		await sandbox.admin.seed({ contacts: 30 });
		const p = await page('/contacts');
		expect(p.meta).toEqual({ page: 1, per_page: 25, total: 30 });
		expect(ids(p)).toEqual((await storedIds()).slice(0, 25));
	});

	it('gives a last partial page', async () => {
		await sandbox.admin.seed({ contacts: 30 });
		const p = await page('/contacts?page=2');
		expect(p.meta).toEqual({ page: 2, per_page: 25, total: 30 });
		expect(ids(p)).toEqual((await storedIds()).slice(25));
	});

	it('with a total that is an exact multiple of per_page: the last page is full and the next empty', async () => {
		await sandbox.admin.seed({ contacts: 50 });
		const second = await page('/contacts?page=2&per_page=25');
		expect(second.data).toHaveLength(25);
		expect(ids(second)).toEqual((await storedIds()).slice(25, 50));
		expect(await page('/contacts?page=3&per_page=25')).toEqual({ success: true, data: [], meta: { page: 3, per_page: 25, total: 50 } });
	});

	it('answers a page far past the end with [] and the true total', async () => {
		await sandbox.admin.seed({ contacts: 3 });
		expect(await page('/contacts?page=1000000')).toEqual({ success: true, data: [], meta: { page: 1000000, per_page: 25, total: 3 } });
	});

	it('per_page=100 is honoured exactly; per_page=101 is capped to 100', async () => {
		await sandbox.admin.seed({ contacts: 205 });
		expect((await page('/contacts?per_page=100')).meta.per_page).toBe(100);
		const capped = await page('/contacts?per_page=101&page=3');
		expect(capped.meta).toEqual({ page: 3, per_page: 100, total: 205 });
		expect(ids(capped)).toEqual((await storedIds()).slice(200));
	});

	it('per_page=1 walks every record once, in ascending id order', async () => {
		await sandbox.admin.seed({ contacts: 7 });
		const walked: number[] = [];
		for (let n = 1; n <= 8; n++) walked.push(...ids(await page(`/contacts?per_page=1&page=${n}`)));
		expect(walked).toEqual(await storedIds());
	});

	it('all pages together are the whole store, with no duplicate, also after deletes', async () => {
		await sandbox.admin.seed({ contacts: 120 });
		for (const id of [1, 2, 50, 51, 120]) await sandbox.api.delete(`/contacts/${id}`);
		await createContact(sandbox.api);
		const stored = await storedIds();
		const walked: number[] = [];
		for (let n = 1; n <= 3; n++) walked.push(...ids(await page(`/contacts?per_page=50&page=${n}`)));
		expect(walked).toEqual(stored);
		expect([...walked].sort((a, b) => a - b)).toEqual(walked);
		expect(stored).toHaveLength(116);
	});

	it('pages a filtered list: meta.total counts the matches', async () => {
		await sandbox.admin.seed({ contacts: 300, seed: 5 });
		const all = await sandbox.admin.records('contacts');
		const matching = all.filter((c) => c.company?.includes('Logistics')).map((c) => c.id);
		expect(matching.length).toBeGreaterThan(10);
		const second = await page('/contacts?search=logistics&per_page=10&page=2');
		expect(second.meta).toEqual({ page: 2, per_page: 10, total: matching.length });
		expect(ids(second)).toEqual(matching.slice(10, 20));
	});

	it('pages a descending sort from the end', async () => {
		await sandbox.admin.seed({ contacts: 30 });
		const stored = await storedIds();
		expect(ids(await page('/contacts?sort=-id&per_page=10&page=3'))).toEqual(stored.reverse().slice(20, 30));
	});

	it('pages 20,000 records', async () => {
		await sandbox.admin.seed({ contacts: 20_000 });
		const last = await page('/contacts?per_page=100&page=200');
		expect(last.meta).toEqual({ page: 200, per_page: 100, total: 20_000 });
		expect(ids(last)).toEqual(Array.from({ length: 100 }, (_, i) => 19_901 + i));
	});
});

describe('stock and payroll paging', () => {
	it('pages the stock rows of a product', async () => {
		const product = await createProduct(sandbox.api);
		const first = (await sandbox.api.get(`/products/${product.id}/stock?per_page=2`)).data;
		expect(first.meta).toEqual({ page: 1, per_page: 2, total: 3 });
		expect(first.data.map((row: { warehouse_code: string }) => row.warehouse_code)).toEqual(['MAIN', 'NORTH']);
		const second = (await sandbox.api.get(`/products/${product.id}/stock?per_page=2&page=2`)).data;
		expect(second.data.map((row: { warehouse_code: string }) => row.warehouse_code)).toEqual(['SOUTH']);
		expect((await sandbox.api.get(`/products/${product.id}/stock?page=x`)).status).toBe(400);
	});

	it('pages payroll newest first', async () => {
		await sandbox.admin.seed({ employees: 40, seed: 2 });
		const payroll = await sandbox.admin.records('payroll');
		const employeeId = payroll.find((record) => (payroll.filter((r) => r.employee_id === record.employee_id).length >= 12))?.employee_id as number;
		const own = payroll.filter((r) => r.employee_id === employeeId);
		const second = (await sandbox.api.get(`/employees/${employeeId}/payroll?per_page=5&page=2`)).data;
		expect(second.meta).toEqual({ page: 2, per_page: 5, total: own.length });
		const periods = second.data.map((r: { period: string }) => r.period);
		expect(periods).toEqual([...periods].sort().reverse());
		expect(periods).toEqual(own.map((r) => r.period).sort().reverse().slice(5, 10));
	});
});
