import type { INodeParameters } from 'n8n-workflow';

import { createContact, createProduct, usePollingHarness } from './harness';

/** Bad input is a clear error naming the parameter, at activation (the first poll) and in the test step; never a silent no-op. */
describe('ERP Polling Trigger: bad input', () => {
	const { sandbox, poller } = usePollingHarness();

	beforeEach(async () => {
		await createContact(sandbox.api);
		const product = await createProduct(sandbox.api);
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 5 });
	});

	const cases: Array<[string, INodeParameters, RegExp]> = [
		[
			'a field to watch the ERP does not have',
			{ triggerOn: 'contact:recordUpdated', fieldsToWatch: 'email, mobile' },
			/^Fields to Watch: the ERP's contact records have no field "mobile"; use one of .*company.*email/,
		],
		['a field the ERP does not have', { triggerOn: 'contact:fieldValue', field: 'state', value: 'x' }, /^Field: .*no field "state"/],
		['an empty field', { triggerOn: 'contact:fieldValue', field: ' ', value: 'x' }, /^Field is empty: enter the name of the field/],
		[
			'a threshold that is not a number',
			{ triggerOn: 'product:lowStock', thresholdType: 'number', threshold: '={{ "ten" }}' },
			/^Threshold Value must be a number, e.g. 10, not "ten"/,
		],
		[
			'a threshold field the products do not have as a number',
			{ triggerOn: 'product:lowStock', thresholdType: 'field', thresholdField: 'name' },
			/^Threshold Field: product 1 has no number in "name"/,
		],
		[
			'a product ID that does not exist',
			{ triggerOn: 'product:lowStock', products: 'chosen', productIds: '1, 999' },
			/^Product IDs: no product with ID 999 in the ERP/,
		],
		[
			'a product ID that is not a number',
			{ triggerOn: 'product:lowStock', products: 'chosen', productIds: '1, CHAIR-1' },
			/^Product IDs: "CHAIR-1" is not a product ID/,
		],
		[
			'a quantity field the stock records do not have',
			{ triggerOn: 'product:lowStock', options: { quantityField: 'qty' } },
			/^Quantity Field: the stock of product 1 has no number in "qty" \(its stock records have .*quantity/,
		],
	];

	it.each(cases)('%s', async (_, parameters, message) => {
		const trigger = poller(parameters);
		const activation = await trigger.poll();
		expect(activation.error?.message).toMatch(message);
		expect(trigger.saved()).toEqual({});
		expect((await trigger.testStep()).error?.message).toMatch(message);
	});
});
