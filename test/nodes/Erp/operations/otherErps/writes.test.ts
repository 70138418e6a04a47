import { byId, createWith, jsonOf, useErpHarness } from '../setup';

// ERPs that answer writes, or judge values, other than the sandbox does by default.
const h = useErpHarness({ contacts: 3, products: 3 });

describe('writes on ERPs that chose otherwise', () => {
	it('replace-put: Update and Create or Update keep every field the user did not touch', async () => {
		await h.sandbox.admin.setVariants(['replace-put']);
		const [contact] = await h.sandbox.admin.records('contacts');
		const [product] = await h.sandbox.admin.records('products');
		await h.run({ resource: 'contact', operation: 'update', contactId: byId(contact.id), updateFields: { company: 'Initech' } });
		await h.run({ resource: 'product', operation: 'update', productId: byId(product.id), updateFields: { unitPrice: 9.5 } });
		await h.run(createWith('product', { sku: product.sku as string, name: 'Renamed' }, {}, 'upsert'));
		const afterContact = await h.sandbox.admin.record('contacts', contact.id);
		const afterProduct = await h.sandbox.admin.record('products', product.id);
		expect(afterContact).toEqual({ ...contact, company: 'Initech', updated_at: afterContact?.updated_at });
		expect(afterProduct).toEqual({ ...product, unit_price: 9.5, name: 'Renamed', updated_at: afterProduct?.updated_at });
	});

	it('bare-create: a create answered without the record outputs the record, found by its key', async () => {
		await h.sandbox.admin.setVariants(['bare-create']);
		const contact = await h.run(createWith('contact', { first_name: 'Ada', email: 'ada@example.com' }));
		const product = await h.run(createWith('product', { sku: 'BARE-1', name: 'Bare' }));
		const employee = await h.run(createWith('employee', { first_name: 'Lin', last_name: 'Chen', email: 'lin@example.com' }));
		const [stored] = (await h.sandbox.admin.records('contacts')).filter((c) => c.email === 'ada@example.com');
		expect(jsonOf(contact)).toEqual([stored]);
		expect(jsonOf(product)).toEqual([(await h.sandbox.admin.records('products')).find((p) => p.sku === 'BARE-1')]);
		expect(jsonOf(employee)).toEqual(await h.sandbox.admin.records('employees'));
		const posts = (await h.requests()).filter((r) => r.method === 'POST');
		expect(posts).toHaveLength(3);
	});

	it('bare-create: a record without a key (an invoice, a contact without e-mail) is a clear error that says it was probably created', async () => {
		await h.sandbox.admin.setVariants(['bare-create']);
		const [contact] = await h.sandbox.admin.records('contacts');
		const invoice = await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: { line: [{ description: 'Work', quantity: 1, unitPrice: 10 }] },
		});
		expect(invoice.error?.message).toMatch(/sent no invoice/);
		expect((invoice.error as { description?: string }).description).toMatch(/created/);
		const noEmail = await h.run(createWith('contact', { first_name: 'Nomail' }));
		expect(noEmail.error?.message).toBe('The ERP answered that the contact was created but sent no contact back');
		expect((await h.requests()).filter((r) => r.method === 'POST')).toHaveLength(2);
	});

	it('created-200: a create answered 200 instead of 201 is a create like any other', async () => {
		await h.sandbox.admin.setVariants(['created-200']);
		const result = await h.run(createWith('product', { sku: 'OK-200', name: 'Two hundred' }));
		expect(jsonOf(result)).toEqual([(await h.sandbox.admin.records('products')).find((p) => p.sku === 'OK-200')]);
	});

	it('delete-204 and soft-delete: {deleted: true, id} whether the ERP answers nothing or the removed record', async () => {
		const [first, second] = await h.sandbox.admin.records('contacts');
		await h.sandbox.admin.setVariants(['delete-204']);
		const bare = await h.run({ resource: 'contact', operation: 'delete', contactId: byId(first.id) });
		expect(jsonOf(bare)).toEqual([{ deleted: true, id: first.id }]);
		await h.sandbox.admin.setVariants(['soft-delete']);
		const soft = await h.run({ resource: 'contact', operation: 'delete', contactId: byId(second.id) });
		expect(jsonOf(soft)).toEqual([{ deleted: true, id: second.id }]);
		expect((await h.sandbox.admin.records('contacts')).map((c) => c.id)).not.toContain(second.id);
	});

	it('lenient-rules: values our sandbox would refuse reach an ERP that accepts them, and are stored', async () => {
		await h.sandbox.admin.setVariants(['lenient-rules']);
		const [contact] = await h.sandbox.admin.records('contacts');
		const longName = 'Chair '.repeat(60).trim();
		await h.run(createWith('product', { sku: 'chair/oak 01 ü', name: longName, currency: 'usd' }));
		await h.run(createWith('employee', { first_name: 'Ida', last_name: 'Intern', email: 'ida@example.com', employment_type: 'intern', salary: 0 }));
		const invoice = await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: { line: [{ description: 'Work', quantity: 1.125, unitPrice: 10 }] },
		});
		await h.run({ resource: 'invoice', operation: 'markPaid', invoiceId: byId(jsonOf(invoice)[0].id), additionalFields: { paymentMethod: 'paypal' } });
		expect((await h.sandbox.admin.records('products')).find((p) => p.sku === 'chair/oak 01 ü')).toMatchObject({ name: longName, currency: 'usd' });
		expect((await h.sandbox.admin.records('employees'))[0]).toMatchObject({ employment_type: 'intern', salary: 0 });
		expect((await h.sandbox.admin.records('invoices'))[0]).toMatchObject({ payment_method: 'paypal', status: 'paid' });
		expect((await h.requests()).every((r) => r.status !== null && r.status < 300)).toBe(true);
	});

	it('tight-rules: a limit of the ERP that the node cannot know is its 422, shown with the field', async () => {
		await h.sandbox.admin.setVariants(['tight-rules']);
		const result = await h.run(createWith('contact', { first_name: 'Maximiliane-Konstanze', email: 'max@example.com' }));
		expect(result.error?.message).toMatch(/^The ERP refused to create the contact \(422\): first_name: /);
	});
});
