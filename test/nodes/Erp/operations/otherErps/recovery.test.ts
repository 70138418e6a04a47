import type { VariantName } from '../../../../../tooling/harness/sandbox';
import { byId, createFromInput, createWith, jsonOf, useErpHarness } from '../setup';

// Creates whose answer was lost (issue 15): the node looks the key up before it reports, and never repeats a POST
// that a lookup has not proved unwritten. The sandbox's request log is the witness.
const h = useErpHarness({ contacts: 2 });

const posts = async () => (await h.requests()).filter((r) => r.method === 'POST');

describe('creates that resolve their own unclear failures', () => {
	it.each([
		['a 500 after the ERP saved it', { kind: 'status', status: 500, afterCommit: true }],
		['a dropped connection after the save', { kind: 'drop', afterCommit: true }],
		['an HTML 502 page after the save', { kind: 'html', afterCommit: true }],
	] as const)('%s: the item succeeds with the saved contact, recovered, and is not sent again', async (_label, fault) => {
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/contacts' }, fault });
		const result = await h.run(createWith('contact', { first_name: 'Ada', email: 'ada@example.com' }));
		expect(result.error).toBeUndefined();
		const stored = (await h.sandbox.admin.records('contacts')).filter((c) => c.email === 'ada@example.com');
		expect(stored).toHaveLength(1);
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: stored[0].id, email: 'ada@example.com', recovered: true })]);
		expect(await posts()).toHaveLength(1);
	});

	it('a 500 before anything was saved: the lookup proves it, and the create is sent once more', async () => {
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/products' }, fault: { kind: 'status', status: 500, afterCommit: false } });
		const result = await h.run(createWith('product', { sku: 'RETRY-1', name: 'Retried' }));
		expect(result.error).toBeUndefined();
		expect((await h.sandbox.admin.records('products')).filter((p) => p.sku === 'RETRY-1')).toHaveLength(1);
		expect((await h.requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			'POST /products 500',
			'GET /products 200',
			'POST /products 201',
		]);
	});

	it('an employee and a Create or Update of a product resolve the same way', async () => {
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/employees' }, fault: { kind: 'drop', afterCommit: true } });
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/products' }, fault: { kind: 'status', status: 503, afterCommit: true } });
		const employee = await h.run(createWith('employee', { first_name: 'Lin', last_name: 'Chen', email: 'lin@example.com' }));
		const product = await h.run(createWith('product', { sku: 'UPS-1', name: 'Upserted' }, {}, 'upsert'));
		expect(jsonOf(employee)).toEqual([expect.objectContaining({ email: 'lin@example.com', recovered: true })]);
		expect(jsonOf(product)).toEqual([expect.objectContaining({ sku: 'UPS-1', action: 'created', recovered: true })]);
		expect(await h.sandbox.admin.records('employees')).toHaveLength(1);
		expect(await posts()).toHaveLength(2);
	});

	it('an invoice, which has no natural key, stays an error that says the ERP may have created it; never sent twice', async () => {
		const [contact] = await h.sandbox.admin.records('contacts');
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/invoices' }, fault: { kind: 'status', status: 500, afterCommit: true } });
		const result = await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: { line: [{ description: 'Work', quantity: 1, unitPrice: 10 }] },
		});
		expect((result.error as { description?: string }).description).toMatch(/may have/);
		expect(await posts()).toHaveLength(1);
	});

	it('a contact without an e-mail cannot be looked up: the unclear failure stays an error, never repeated', async () => {
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/contacts' }, fault: { kind: 'status', status: 500, afterCommit: true } });
		const result = await h.run(createWith('contact', { first_name: 'Nomail' }));
		expect((result.error as { description?: string }).description).toMatch(/may have/);
		expect(await posts()).toHaveLength(1);
	});

	it.each<VariantName>(['offset-timestamps', 'ignored-filters'])(
		'%s: an import of 200 contacts with 20%% 5xx and 10%% drops after commit ends with every item succeeded, each contact once',
		async (variant) => {
			await h.sandbox.admin.setVariants([variant]);
			await h.sandbox.admin.setFaults({ errorRate: 0.2, dropRate: 0.1, faultTiming: 'after' });
			const input = Array.from({ length: 200 }, (_, i) => ({ first_name: `Row${i}`, email: `row${i}@example.com` }));
			const result = await h.run(createFromInput('contact', { options: { concurrency: 5, maxRetries: 10 } }, 'upsert'), { input, continueOnFail: true });
			await h.sandbox.admin.setFaults({ errorRate: 0, dropRate: 0 });
			expect(jsonOf(result).filter((json) => json.error)).toEqual([]);
			const stored = (await h.sandbox.admin.records('contacts')).filter((c) => String(c.email).startsWith('row'));
			expect(stored.map((c) => c.email).sort()).toEqual(input.map((row) => row.email).sort());
		},
		120_000,
	);
});
