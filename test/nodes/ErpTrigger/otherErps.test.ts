import type { VariantName } from '../../../tooling/harness/sandbox';
import { createProduct } from '../../sandbox/fixtures';
import { SECRET, useTriggerHarness } from './harness';

// A sandbox playing ERPs that chose otherwise where the document is silent: timestamps in other forms, newer event
// names, products without a stock field, other threshold and quantity fields. A delivery is never refused for them
// (a refused delivery is retried, then lost).

const h = useTriggerHarness();
const { sandbox } = h;

async function listen(typeVersion: 1 | 2, parameters = {}) {
	const trigger = await h.start({ verification: 'hmacSha256', ...parameters }, { typeVersion });
	await sandbox.admin.addWebhook({ url: trigger.url, secret: SECRET });
}

describe('deliveries from ERPs that chose otherwise', () => {
	it.each<[VariantName, RegExp | undefined]>([
		['webhook-timestamp-seconds', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/],
		['webhook-timestamp-offset', /\+00:00$/],
		['webhook-timestamp-compact', /\+0000$/],
		['webhook-timestamp-micros', /\.\d{6}Z$/],
		['webhook-timestamp-unparseable', /^\d\d\.\d\d\.\d{4} um \d\d:\d\d:\d\d Uhr$/],
		['webhook-timestamp-missing', undefined],
	])('%s: the delivery starts the workflow, its timestamp kept exactly as sent', async (variant, form) => {
		await sandbox.admin.setVariants([variant]);
		await listen(1, { events: ['invoice.paid'] });
		await sandbox.admin.emit('invoice.paid');

		const answer = await h.delivered();
		const [delivery] = await h.ended();
		const sent = delivery.body as { timestamp?: string };
		expect(answer.status).toBe(200);
		expect(delivery).toMatchObject({ delivered: true, attempts: [{ status: 200 }] });
		expect(answer.confirmed).toEqual([{ ...sent, deliveryKey: delivery.id, eventKey: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
		if (form) expect(sent.timestamp).toMatch(form);
		else expect(sent).not.toHaveProperty('timestamp');
	});

	it.each([
		[1, { confirmed: [expect.objectContaining({ event: 'invoice.created', data: { invoice_id: 7 } })], notConfirmed: [] }],
		[2, { confirmed: [], notConfirmed: [expect.objectContaining({ event: 'invoice.created', confirmation: expect.objectContaining({ status: 'unconfirmable' }) })] }],
	] as const)('future-events: a newer event name under All Events, version %i: answered 200, never on Confirmed in version 2', async (typeVersion, started) => {
		await sandbox.admin.setVariants(['future-events']);
		await listen(typeVersion, { events: ['*'] });
		await sandbox.admin.emit('invoice.created', { invoice_id: 7 });

		const answer = await h.delivered();
		expect({ status: answer.status, confirmed: answer.confirmed, notConfirmed: answer.notConfirmed }).toEqual({ status: 200, ...started });
	});
});

describe('low stock confirmed on ERPs that chose otherwise', () => {
	const once = { confirmationWait: 0 };
	const lowStock = (productId: number) => ({ event: 'product.low_stock', data: { product_id: productId } });
	async function chairWithStock(quantity: number) {
		const product = await createProduct(sandbox.api, { low_stock_threshold: 10, unit_price: 100 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity });
		return product;
	}

	it.each([
		['no-stock-in-list: products carry no stock field; the stock records decide, as for the polling trigger', 'no-stock-in-list', {}, 4, true, { status: 'confirmed', stock: { total: 4, threshold: 10 } }],
		['a threshold in another product field: Threshold Field names it', undefined, { thresholdField: 'unit_price' }, 50, true, { status: 'confirmed', stock: { total: 50, threshold: 100 } }],
		[
			'a product without a number in Threshold Field: unconfirmable, naming the option, without reading its stock',
			undefined,
			{ thresholdField: 'reorder_level' },
			4,
			false,
			{ status: 'unconfirmable', reason: expect.stringMatching(/^Threshold Field: product \d+ has no number in "reorder_level" \(null\); set Options › Threshold Field to the product field holding its threshold$/) },
		],
		['stock records without a number in Quantity Field: unconfirmable, naming the option', undefined, { quantityField: 'qty' }, 4, true, { status: 'unconfirmable', reason: expect.stringMatching(/^Quantity Field: the stock of product \d+ has no number in "qty"/) }],
	] as const)('%s', async (_title, variant, options, quantity, stockRead, confirmation) => {
		const product = await chairWithStock(quantity);
		if (variant) await sandbox.admin.setVariants([variant]);
		await h.start({ options: { ...once, ...options } });
		await h.mark();

		const answer = await h.post(lowStock(product.id));
		const [item] = [...answer.confirmed, ...answer.notConfirmed];
		expect({ status: answer.status, confirmed: answer.confirmed.length, confirmation: item.confirmation }).toEqual({ status: 200, confirmed: confirmation.status === 'confirmed' ? 1 : 0, confirmation });
		expect(item.record).toEqual(variant ? expect.not.objectContaining({ stock_total: expect.anything() }) : expect.objectContaining({ id: product.id }));
		expect(await h.reads()).toEqual([`GET /products/${product.id}`, ...(stockRead ? [`GET /products/${product.id}/stock`] : [])]);
	});
});
