import { useTestSandbox } from '../../tooling/harness/sandbox';
import { createContact } from './fixtures';

const sandbox = useTestSandbox();

const employee = (fields: object = {}) => ({ first_name: 'Lukas', last_name: 'Weber', email: 'lukas@example.com', ...fields });

describe('lenient-rules', () => {
	beforeEach(() => sandbox.admin.setVariants(['lenient-rules']));

	it.each([
		['a slash and a space', 'PAL/2024 A'],
		['umlauts', 'Größe-XL'],
		['unicode and spaces', 'ünï cødé 42'],
		['255 characters', 'x'.repeat(255)],
	])('stores a SKU with %s as sent', async (_label, sku) => {
		const response = await sandbox.api.post('/products', { sku, name: 'Pallet' });
		expect(response.status).toBe(201);
		expect(response.data.data.sku).toBe(sku);
		expect((await sandbox.api.get('/products', { params: { sku } })).data.data.map((p: { sku: string }) => p.sku)).toEqual([sku]);
	});

	it('still refuses a SKU over 255 characters, and one that is missing', async () => {
		const response = await sandbox.api.post('/products', { sku: 'x'.repeat(256), name: 'Too long' });
		expect(response.data.error.fields).toEqual({ sku: ['must be at most 255 characters'] });
		expect((await sandbox.api.post('/products', { name: 'No SKU' })).data.error.fields).toEqual({ sku: ['is required'] });
	});

	it('takes names up to 1,000 characters, other currency codes, and prices with more decimals', async () => {
		const name = 'N'.repeat(1000);
		const contact = await sandbox.api.post('/contacts', { first_name: name, last_name: name, company: name });
		expect(contact.status).toBe(201);
		expect((await sandbox.admin.record('contacts', contact.data.data.id))?.last_name).toBe(name);
		expect((await sandbox.api.post('/contacts', { first_name: 'N'.repeat(1001) })).status).toBe(422);
		const product = await sandbox.api.post('/products', { sku: 'P-1', name, currency: 'usdt', unit_price: 0.1234 });
		expect(product.status).toBe(201);
		expect(product.data.data).toMatchObject({ currency: 'usdt', unit_price: 0.1234 });
	});

	it('stores employment types, salaries of 0 and phones with extensions beyond ours', async () => {
		const response = await sandbox.api.post('/employees', employee({ employment_type: 'intern', salary: 0, currency: 'XBT', phone: '+1 (555) 010-9999 ext. 12' }));
		expect(response.status).toBe(201);
		expect(response.data.data).toMatchObject({ employment_type: 'intern', salary: 0, currency: 'XBT', phone: '+1 (555) 010-9999 ext. 12' });
		expect((await sandbox.api.get('/employees?employment_type=intern')).data.meta.total).toBe(1);
	});

	it('keeps what the API document says: a phone needs its leading +, an e-mail its shape, required fields', async () => {
		const response = await sandbox.api.post('/employees', { first_name: 'Lukas', email: 'lukas.example.com', phone: '0049 30 1234567' });
		expect(response.status).toBe(422);
		expect(Object.keys(response.data.error.fields).sort()).toEqual(['email', 'last_name', 'phone']);
	});

	it('stores invoice states, payment methods and quantities beyond ours', async () => {
		const contact = await createContact(sandbox.api);
		const created = await sandbox.api.post('/invoices', {
			contact_id: contact.id,
			status: 'pending',
			currency: 'usd',
			lines: [{ description: 'Cable', quantity: 2.125, unit_price: 3.999 }],
		});
		expect(created.status).toBe(201);
		expect(created.data.data).toMatchObject({ status: 'pending', currency: 'usd', lines: [{ quantity: 2.125, unit_price: 3.999 }], total: 8.5 });
		expect((await sandbox.api.get('/invoices?status=pending')).data.data.map((i: { id: number }) => i.id)).toEqual([created.data.data.id]);
		const paid = await sandbox.api.post(`/invoices/${created.data.data.id}/mark-paid`, { payment_method: 'paypal' });
		expect(paid.status).toBe(200);
		expect(paid.data.data).toMatchObject({ status: 'paid', payment_method: 'paypal', amount_due: 0 });
	});
});

describe('tight-rules', () => {
	beforeEach(() => sandbox.admin.setVariants(['tight-rules']));

	it('refuses a first name over 20 characters with a field message', async () => {
		expect((await sandbox.api.post('/contacts', { first_name: 'A'.repeat(20) })).status).toBe(201);
		const response = await sandbox.api.post('/contacts', { first_name: 'Maximiliane-Alexandra' });
		expect(response.status).toBe(422);
		expect(response.data.error.fields).toEqual({ first_name: ['must be at most 20 characters'] });
	});

	it('on updates too, and on products, employees and invoice lines', async () => {
		const contact = await createContact(sandbox.api);
		expect((await sandbox.api.put(`/contacts/${contact.id}`, { company: 'C'.repeat(41) })).data.error.fields).toEqual({
			company: ['must be at most 40 characters'],
		});
		expect((await sandbox.api.post('/products', { sku: 'SKU-0000000000017', name: 'Chair' })).data.error.fields).toEqual({
			sku: ['must be at most 16 characters'],
		});
		expect((await sandbox.api.post('/employees', employee({ department: 'D'.repeat(41) }))).data.error.fields).toEqual({
			department: ['must be at most 40 characters'],
		});
		const invoice = await sandbox.api.post('/invoices', { contact_id: contact.id, lines: [{ description: 'L'.repeat(101), unit_price: 1 }] });
		expect(invoice.data.error.fields).toEqual({ 'lines[0].description': ['must be at most 100 characters'] });
	});
});

describe('the default rules, for contrast', () => {
	it('refuse what lenient-rules takes', async () => {
		expect((await sandbox.api.post('/products', { sku: 'PAL/2024 A', name: 'Pallet' })).status).toBe(422);
		expect((await sandbox.api.post('/employees', employee({ employment_type: 'intern' }))).status).toBe(422);
		expect((await sandbox.api.post('/employees', employee({ salary: 0 }))).status).toBe(422);
	});
});
