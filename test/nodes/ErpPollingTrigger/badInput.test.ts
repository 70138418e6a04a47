import type { INodeParameters, NodeOperationError } from 'n8n-workflow';

import { createContact, createOrder, createProduct, usePollingHarness } from './harness';

/**
 * Bad input is a clear error naming the parameter, at activation (the first poll) and in the test step; never a silent
 * no-op. For any list (the sandbox's orders extension), a List Path that would leave the Base URL is refused before any request.
 */
describe('ERP Polling Trigger: bad input', () => {
	const { sandbox, poller } = usePollingHarness({ extensions: ['orders'] });

	beforeEach(async () => {
		await createContact(sandbox.api);
		const product = await createProduct(sandbox.api);
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 5 });
		await createOrder(sandbox.api, { reference: 'SO-1', status: 'open' });
		await createOrder(sandbox.api, { reference: 'SO-2', status: 'open' });
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
			'a stock field the products do not have as a number',
			{ triggerOn: 'product:lowStock', options: { stockField: 'on_hand' } },
			/^Stock Field: product 1 has no number in "on_hand" \(null\); enter the product field holding its total stock, or leave Stock Field empty/,
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
		[
			'a List Path where the ERP lists nothing',
			{ triggerOn: 'list:recordAdded', listPath: '/ordrs' },
			/^List Path: nothing answers at http:\/\/127\.0\.0\.1:\d+\/api\/v1\/ordrs \(404\)$/,
		],
		['an empty ID Field', { triggerOn: 'list:recordAdded', listPath: '/orders', idField: ' ' }, /^ID Field is empty: enter the field that identifies each record/],
		[
			'an ID Field the records do not have',
			{ triggerOn: 'list:recordAdded', listPath: '/orders', idField: 'number' },
			/^ID Field: a record of \/orders has no "number" \(its fields are id, reference, customer, .*\); set ID Field to the field holding each record's own ID or number$/,
		],
		[
			'an ID Field that does not tell the records apart',
			{ triggerOn: 'list:recordAdded', listPath: '/orders', idField: 'status' },
			/^ID Field: two records on one page of \/orders have the status "open"; set ID Field to a field no two records share, e.g. id$/,
		],
		[
			'a field to watch the records do not have',
			{ triggerOn: 'list:recordUpdated', listPath: '/orders', fieldsToWatch: 'status, state' },
			/^Fields to Watch: the ERP's records of \/orders have no field "state"; use one of .*customer.*status/,
		],
		['a field the records do not have', { triggerOn: 'list:fieldValue', listPath: '/orders', field: 'state', value: 'x' }, /^Field: .*records of \/orders have no field "state"/],
		['an empty field', { triggerOn: 'list:fieldValue', listPath: '/orders', field: ' ', value: 'x' }, /^Field is empty: enter the name of the field/],
	];

	// A value wrong in itself declares no failure to n8n; one the ERP contradicts is a configuration to fix.
	const wrongInItself = new Set(['an empty field', 'a threshold that is not a number', 'a product ID that is not a number', 'an empty ID Field']);

	it.each(cases)('%s', async (what, parameters, message) => {
		const trigger = poller(parameters);
		const activation = await trigger.poll();
		expect(activation.error?.message).toMatch(message);
		expect((activation.error as NodeOperationError).failure).toEqual(wrongInItself.has(what) ? undefined : { cause: 'configuration-invalid' });
		expect(trigger.saved()).toEqual({});
		expect((await trigger.testStep()).error?.message).toMatch(message);
	});

	// Every way a path can leave the Base URL: pathProblem (test/nodes/Erp/pureRules.test.ts); here that List Path is checked with it.
	const refusedBeforeAnyRequest: Array<[string, string, RegExp]> = [
		['a way out of the Base URL', '/orders/../../admin', /^List Path "\/orders\/\.\.\/\.\.\/admin" contains a \. or \.\. segment, which would leave the Base URL's path$/],
		['no leading slash', 'orders', /^List Path "orders" must start with \/$/],
	];

	it.each(refusedBeforeAnyRequest)('List Path with %s is refused before any request', async (_, listPath, message) => {
		const trigger = poller({ triggerOn: 'list:recordAdded', listPath });
		const since = await sandbox.admin.lastRequestSeq();
		const activation = await trigger.poll();
		expect(activation.error?.message).toMatch(message);
		expect((activation.error as NodeOperationError).failure).toEqual({ cause: 'configuration-invalid' });
		expect((await trigger.testStep()).error?.message).toMatch(message);
		expect(trigger.saved()).toEqual({});
		expect(await sandbox.admin.requests(since)).toEqual([]);
	});

	it('a List Path where the ERP lists nothing says to check List Path, and is a configuration to fix', async () => {
		const { error } = await poller({ triggerOn: 'list:recordAdded', listPath: '/ordrs', options: { maxRetries: 0 } }).poll();
		expect((error as NodeOperationError).description).toMatch(/^Check List Path: the ERP lists nothing at \/ordrs\. Check the Base URL/);
		expect((error as NodeOperationError).failure).toEqual({ cause: 'configuration-invalid' });
	});

	// n8n 2.x's durable scheduler backs a failing poll off by the `failure` on the error poll() throws.
	it("a 429 naming a long wait → rate-limited with the ERP's wait, on the error poll() throws", async () => {
		await sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'rateLimit', retryAfter: 3600 } });
		const { error } = await poller({ triggerOn: 'contact:recordUpdated' }).poll();
		expect(error?.message).toBe('The ERP asks to wait 1 h before the next request (429)');
		expect((error as NodeOperationError).failure).toEqual({ cause: 'rate-limited', retryAfterMs: 3_600_000 });
	});

	it.each(['order:recordAdded', 'employee:lowStock', 'contact', 'lowStock'])('"%s", not one of its choices, is an error naming Trigger On', async (triggerOn) => {
		const { items, error } = await poller({ triggerOn }).poll();
		expect(items).toBeNull();
		expect(error?.message).toBe(`Trigger On "${triggerOn}" is not one of its choices: choose one of them, e.g. Contact Added`);
	});
});
