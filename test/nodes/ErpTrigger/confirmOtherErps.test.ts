import { createContact, createProduct } from '../../sandbox/fixtures';
import { SECRET, useConfirmHarness } from './confirmHarness';

// ERP Trigger version 2's confirmation against ERPs that chose otherwise where the document is silent: products
// without a stock field, other threshold and quantity fields, newer event names, another delivery id header.

const h = useConfirmHarness();
const { sandbox } = h;
const once = { confirmationWait: 0 };
const lowStock = (productId: number) => ({ event: 'product.low_stock', data: { product_id: productId } });

async function chairWithStock(quantity: number) {
	const product = await createProduct(sandbox.api, { low_stock_threshold: 10, unit_price: 100 });
	await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity });
	return product;
}

describe('low stock on ERPs that chose otherwise', () => {
	it('no-stock-in-list: products carry no stock field; the stock records decide, as for the polling trigger', async () => {
		const product = await chairWithStock(4);
		await sandbox.admin.setVariants(['no-stock-in-list']);
		await h.start({ options: once });

		const answer = await h.post(lowStock(product.id));
		expect(answer.confirmed).toEqual([expect.objectContaining({ confirmation: { status: 'confirmed', stock: { total: 4, threshold: 10 } } })]);
		expect(answer.confirmed[0].record).not.toHaveProperty('stock_total');
	});

	it('a threshold in another product field: Threshold Field names it', async () => {
		const product = await chairWithStock(50);
		await h.start({ options: { ...once, thresholdField: 'unit_price' } });

		const answer = await h.post(lowStock(product.id));
		expect(answer.confirmed).toEqual([expect.objectContaining({ confirmation: { status: 'confirmed', stock: { total: 50, threshold: 100 } } })]);
	});

	it('a product without a number in Threshold Field: unconfirmable, naming the option, without reading its stock', async () => {
		const product = await chairWithStock(4);
		await h.start({ options: { ...once, thresholdField: 'reorder_level' } });
		await h.mark();

		const answer = await h.post(lowStock(product.id));
		expect(answer.status).toBe(200);
		expect(answer.notConfirmed).toEqual([
			expect.objectContaining({
				confirmation: {
					status: 'unconfirmable',
					reason: `Threshold Field: product ${product.id} has no number in "reorder_level" (null); set Options › Threshold Field to the product field holding its threshold`,
				},
				record: expect.objectContaining({ id: product.id }),
			}),
		]);
		expect(await h.reads()).toEqual([`GET /products/${product.id}`]);
	});

	it('stock records without a number in Quantity Field: unconfirmable, naming the option', async () => {
		const product = await chairWithStock(4);
		await h.start({ options: { ...once, quantityField: 'qty' } });

		const answer = await h.post(lowStock(product.id));
		expect(answer.notConfirmed).toEqual([
			expect.objectContaining({ confirmation: { status: 'unconfirmable', reason: expect.stringMatching(/^Quantity Field: the stock of product \d+ has no number in "qty"/) } }),
		]);
	});
});

describe('deliveries from ERPs that chose otherwise', () => {
	it('future-events: a newer event name under All Events reaches Not Confirmed, never Confirmed, answered 200', async () => {
		await sandbox.admin.setVariants(['future-events']);
		const trigger = await h.start();
		await sandbox.admin.addWebhook({ url: trigger.url, secret: SECRET });
		await sandbox.admin.emit('invoice.created', { invoice_id: 7 });

		const answer = await h.delivered();
		expect(answer.status).toBe(200);
		expect(answer.confirmed).toEqual([]);
		expect(answer.notConfirmed).toEqual([expect.objectContaining({ event: 'invoice.created', confirmation: expect.objectContaining({ status: 'unconfirmable' }) })]);
	});

	it('webhook-id-header: the confirmed item’s deliveryKey is the Webhook-Id the ERP named the delivery with', async () => {
		await sandbox.admin.setVariants(['webhook-id-header']);
		const trigger = await h.start();
		await sandbox.admin.addWebhook({ url: trigger.url, secret: SECRET });
		const contact = await createContact(sandbox.api);

		const answer = await h.delivered();
		const [delivery] = await sandbox.admin.deliveries();
		expect(answer.call.request.headers['webhook-id']).toBe(delivery.id);
		expect(answer.confirmed).toEqual([expect.objectContaining({ deliveryKey: delivery.id, record: contact })]);
	});
});
