import type { INodeParameters, NodeOperationError } from 'n8n-workflow';

import { createContact, createProduct, usePollingHarness } from './harness';

/**
 * What poll() throws declares n8n's `failure` on the error itself: n8n 2.x's durable scheduler backs a failing
 * poll off by it (an actionable cause waits long, a timed one honours the ERP's wait).
 */
describe('ERP Polling Trigger: failures declared to n8n', () => {
	const { sandbox, poller } = usePollingHarness();

	beforeEach(async () => {
		await createContact(sandbox.api);
		const product = await createProduct(sandbox.api);
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 5 });
	});

	const configuration: Array<[string, INodeParameters, RegExp]> = [
		['Fields to Watch', { triggerOn: 'contact:recordUpdated', fieldsToWatch: 'email, mobile' }, /^Fields to Watch: .*no field "mobile"/],
		['Product IDs', { triggerOn: 'product:lowStock', products: 'chosen', productIds: '1, 999' }, /^Product IDs: no product with ID 999/],
		['Quantity Field', { triggerOn: 'product:lowStock', options: { quantityField: 'qty' } }, /^Quantity Field: the stock of product 1 has no number/],
		['Threshold Field', { triggerOn: 'product:lowStock', thresholdType: 'field', thresholdField: 'name' }, /^Threshold Field: product 1 has no number/],
	];

	it.each(configuration)('%s naming what the ERP does not have → configuration-invalid', async (_, parameters, message) => {
		const { error } = await poller(parameters).poll();
		expect(error?.message).toMatch(message);
		expect((error as NodeOperationError).failure).toEqual({ cause: 'configuration-invalid' });
	});

	it("a 429 naming a long wait → rate-limited with the ERP's wait, on the error poll() throws", async () => {
		await sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'rateLimit', retryAfter: 3600 } });
		const { error } = await poller({ triggerOn: 'contact:recordUpdated' }).poll();
		expect(error?.message).toBe('The ERP asks to wait 1 h before the next request (429)');
		expect((error as NodeOperationError).failure).toEqual({ cause: 'rate-limited', retryAfterMs: 3_600_000 });
	});
});
