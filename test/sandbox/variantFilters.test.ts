import { useTestSandbox } from '../../tooling/harness/sandbox';
import { createContact, createEmployee, createInvoice, createProduct } from './fixtures';

const sandbox = useTestSandbox();

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
