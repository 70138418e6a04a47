import { createContact, createInvoice, createProduct } from '../../sandbox/fixtures';
import { SECRET, useConfirmHarness } from './confirmHarness';

// A real event may arrive before the ERP's API shows the change (the sandbox's not-yet-visible fault, visibleAfterMs):
// ERP Trigger version 2 reads again after 0.5, 1, 2, 4 s… within Confirmation Wait before calling it contradicted.

const h = useConfirmHarness();
const { sandbox } = h;
const LAG_MS = 1_200;

afterEach(async () => {
	await sandbox.admin.clearFaults();
});

/** The same reads, more than once: how many depends on when the change shows (LAG_MS after the write). */
function expectReadAgain(reads: string[], oneRead: string[]) {
	expect(reads.length).toBeGreaterThan(oneRead.length);
	expect(reads).toEqual(Array.from({ length: reads.length / oneRead.length }, () => oneRead).flat());
}

async function subscribe(parameters = {}) {
	const trigger = await h.start(parameters);
	await sandbox.admin.addWebhook({ url: trigger.url, secret: SECRET });
}

describe('a change the ERP does not show yet', () => {
	it('contact.created: 404 at the first reads, confirmed once visible', async () => {
		await subscribe();
		await sandbox.admin.setFaults({ visibleAfterMs: LAG_MS });
		await h.mark();
		const { data } = await sandbox.api.post('/contacts', { first_name: 'Anna' });
		const id = data.data.id as number;

		const answer = await h.delivered();
		expect(answer.status).toBe(200);
		expect(answer.confirmed).toEqual([expect.objectContaining({ confirmation: { status: 'confirmed' }, record: expect.objectContaining({ id, first_name: 'Anna' }) })]);
		expectReadAgain(await h.reads(), [`GET /contacts/${id}`]);
	});

	it('invoice.paid: read as not paid until the payment shows, then confirmed with the paid invoice', async () => {
		const contact = await createContact(sandbox.api);
		const invoice = await createInvoice(sandbox.api, contact.id);
		await subscribe();
		await sandbox.admin.setFaults({ visibleAfterMs: LAG_MS });
		await h.mark();
		await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`, {});

		const answer = await h.delivered();
		expect(answer.confirmed).toEqual([expect.objectContaining({ record: expect.objectContaining({ id: invoice.id, status: 'paid' }) })]);
		expectReadAgain(await h.reads(), [`GET /invoices/${invoice.id}`]);
	});

	it('product.low_stock: the stock read as before the drop until it shows, then confirmed', async () => {
		const product = await createProduct(sandbox.api, { low_stock_threshold: 10 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 50 });
		await subscribe();
		await sandbox.admin.setFaults({ visibleAfterMs: LAG_MS });
		await h.mark();
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 4 });

		const answer = await h.delivered();
		expect(answer.confirmed).toEqual([expect.objectContaining({ confirmation: { status: 'confirmed', stock: { total: 4, threshold: 10 } } })]);
		expectReadAgain(await h.reads(), [`GET /products/${product.id}`, `GET /products/${product.id}/stock`]);
	});

	it('never visible within Confirmation Wait: contradicted after the reads its schedule allows, answered 200 (no retry of a stale event)', async () => {
		await subscribe({ options: { confirmationWait: 1.5 } });
		await sandbox.admin.setFaults({ visibleAfterMs: 600_000 });
		await h.mark();
		const { data } = await sandbox.api.post('/contacts', { first_name: 'Anna' });
		const id = data.data.id as number;

		const answer = await h.delivered();
		expect(answer.status).toBe(200);
		expect(answer.confirmed).toEqual([]);
		expect(answer.notConfirmed).toEqual([
			expect.objectContaining({
				confirmation: { status: 'contradicted', reason: expect.stringMatching(new RegExp(`^The ERP has no contact ${id} \\(404\\), read 3 times over \\d+(\\.\\d)? s$`)) },
			}),
		]);
		expect(await h.reads()).toEqual([`GET /contacts/${id}`, `GET /contacts/${id}`, `GET /contacts/${id}`]);
		const [delivery] = await sandbox.admin.deliveries();
		expect(delivery.attempts.map((attempt) => attempt.status)).toEqual([200]);
	});

	it('Confirmation Wait 0 reads once', async () => {
		await subscribe({ options: { confirmationWait: 0 } });
		await sandbox.admin.setFaults({ visibleAfterMs: 600_000 });
		await h.mark();
		await sandbox.api.post('/contacts', { first_name: 'Anna' });

		const answer = await h.delivered();
		expect(answer.notConfirmed).toHaveLength(1);
		expect((await h.reads()).filter((read) => read.startsWith('GET /contacts/'))).toHaveLength(1);
	});
});
