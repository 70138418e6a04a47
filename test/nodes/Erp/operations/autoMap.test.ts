import { createFromInput, useErpHarness } from './setup';

const h = useErpHarness();

describe('Create with Map Automatically', () => {
	it('sends each input item as its body, by the API field names, skipping blank and ignored fields', async () => {
		const input = [
			{
				first_name: 'Ada',
				last_name: 'Lovelace',
				email: ' ada@example.com ',
				phone: '+44 20 7946 0958',
				company: '',
				custom_fields: { tier: 'gold' },
				row_number: 2,
			},
			{ first_name: 'Grace', email: 'grace@example.com', notes: null, row_number: 3 },
		];
		const result = await h.run(createFromInput('contact', { ignoreFields: 'row_number, source' }), { input });
		expect(result.error).toBeUndefined();
		expect((await h.requests()).map((request) => request.body)).toEqual([
			{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0958', custom_fields: { tier: 'gold' } },
			{ first_name: 'Grace', email: 'grace@example.com' },
		]);
	});

	it.each([
		[{ first_name: 'Ada', row_number: 2 }, 'Input field "row_number" is not a field of a contact'],
		[{ first_name: 'Ada', First_Name: 'x', mail: 'y' }, 'Input fields "First_Name", "mail" are not fields of a contact'],
		[{ first_name: 'Ada', email: 'ada-at-example.com' }, 'Input field email "ada-at-example.com" is not a valid e-mail address: use the form name@example.com'],
		[{ first_name: 'Ada', phone: 301234567 }, 'Input field phone 301234567 is not in international format: start with + and the country code, e.g. +49 30 1234567'],
		[{ first_name: 'Ada', custom_fields: '{"tier": "gold"}' }, 'Input field custom_fields must be an object such as {"vat_number": "DE123"}, not "{"tier": "gold"}"'],
	])('refuses %j before sending anything', async (row, message) => {
		const result = await h.run(createFromInput('contact'), { input: [row] });
		expect(result.error?.message).toBe(message);
		expect((result.error as { name?: string }).name).toBe('NodeOperationError');
		expect(await h.requests()).toEqual([]);
	});

	it('reads Input Fields to Ignore and Other Input Fields for each item when they are expressions (read once per run when they are not)', async () => {
		const input = [
			{ first_name: 'Ada', email: 'ada@example.com', skip: 'email', vat_id: 'GB1', others: 'send' },
			{ first_name: 'Grace', last_name: 'Hopper', skip: 'last_name', vat_id: 'US2', others: 'ignore' },
		];
		const parameters = { ignoreFields: '={{ "skip, others, " + $json.skip }}', otherInputFields: '={{ $json.others }}', options: { concurrency: 1 } };
		const result = await h.run(createFromInput('contact', parameters), { input });
		expect(result.error).toBeUndefined();
		expect((await h.requests()).map((request) => request.body)).toEqual([{ first_name: 'Ada', vat_id: 'GB1' }, { first_name: 'Grace' }]);
	});

	it('says how to fix an unknown input field', async () => {
		const result = await h.run(createFromInput('contact'), { input: [{ first_name: 'Ada', source: 'fair' }] });
		expect((result.error as { description?: string }).description).toBe(
			'Rename it to one of first_name, last_name, email, phone, company, notes, custom_fields, list it in Input Fields to Ignore, or choose another answer under Other Input Fields.',
		);
	});

	it('sends or ignores input fields that are not listed, as Other Input Fields says', async () => {
		const input = [{ first_name: 'Ada', vat_id: 'GB123', row_number: 7 }];
		const sent = await h.run(createFromInput('contact', { otherInputFields: 'send', ignoreFields: 'row_number' }), { input });
		expect(sent.error).toBeUndefined();
		const ignored = await h.run(createFromInput('contact', { otherInputFields: 'ignore' }), { input });
		expect(ignored.error).toBeUndefined();
		expect((await h.requests()).map((request) => request.body)).toEqual([{ first_name: 'Ada', vat_id: 'GB123' }, { first_name: 'Ada' }]);
	});

	it('takes input fields listed in the saved field list (found in the ERP\'s records) as fields', async () => {
		const parameters = createFromInput('contact');
		const columns = parameters.columns as { schema: object[] };
		columns.schema = [...columns.schema, { id: 'vat_id', displayName: 'vat_id', type: 'string', required: false, defaultMatch: false, display: true }];
		const result = await h.run(parameters, { input: [{ first_name: 'Ada', vat_id: 'GB123' }] });
		expect(result.error).toBeUndefined();
		expect((await h.requests()).map((request) => request.body)).toEqual([{ first_name: 'Ada', vat_id: 'GB123' }]);
	});

	it('maps products and employees by their API names too, numbers and booleans read from text', async () => {
		const product = await h.run(createFromInput('product'), {
			input: [{ sku: 'CHAIR-OAK-01', name: 'Oak chair', unit_price: '149.90', low_stock_threshold: 5, active: 'true' }],
		});
		expect(product.error).toBeUndefined();
		const employee = await h.run(createFromInput('employee'), {
			input: [{ first_name: 'Lin', last_name: 'Chen', email: 'lin@example.com' }],
		});
		expect(employee.error).toBeUndefined();
		expect((await h.requests()).map((request) => request.body)).toEqual([
			{ sku: 'CHAIR-OAK-01', name: 'Oak chair', unit_price: 149.9, low_stock_threshold: 5, active: true },
			{ first_name: 'Lin', last_name: 'Chen', email: 'lin@example.com' },
		]);

		const refused = await h.run(createFromInput('product'), { input: [{ sku: 'CHAIR-OAK-02', name: 'Oak chair', unit_price: 'cheap' }] });
		expect(refused.error?.message).toBe('Input field unit_price must be a number, not "cheap"');
	});
});
