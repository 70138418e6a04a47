import axios from 'axios';

import { useTestSandbox, waitFor, type VariantName } from '../../tooling/harness/sandbox';
import { createContact, createProduct, ISO_MS } from './fixtures';
import { startReceiver, useReceiver } from './receiver';

const sandbox = useTestSandbox();
const receiver = useReceiver();

const OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

describe('offset-timestamps', () => {
	it('writes record timestamps without millis and with +00:00, the same instants to the second', async () => {
		const stored = await createContact(sandbox.api);
		await sandbox.admin.setVariants(['offset-timestamps']);
		const got = (await sandbox.api.get(`/contacts/${stored.id}`)).data.data;
		expect(got.created_at).toMatch(OFFSET);
		expect(got.updated_at).toMatch(OFFSET);
		expect(Date.parse(got.created_at)).toBe(Math.floor(Date.parse(stored.created_at) / 1000) * 1000);
		expect((await sandbox.api.get('/contacts')).data.data[0].created_at).toBe(got.created_at);
		const created = (await sandbox.api.post('/contacts', { first_name: 'Ben' })).data.data;
		expect(created.created_at).toMatch(OFFSET);
	});

	it('in nested rows too (stock), and the filters take the offset form back', async () => {
		const product = await createProduct(sandbox.api);
		await sandbox.admin.setVariants(['offset-timestamps']);
		const [row] = (await sandbox.api.get(`/products/${product.id}/stock`)).data.data;
		expect(row.updated_at).toMatch(OFFSET);
		const contact = (await sandbox.api.get(`/contacts/${(await createContact(sandbox.api)).id}`)).data.data;
		const before = new Date(Date.parse(contact.created_at) + 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
		expect((await sandbox.api.get('/contacts', { params: { created_before: before } })).data.meta.total).toBe(1);
	});
});

describe('webhook timestamp forms', () => {
	beforeEach(() => sandbox.admin.addWebhook({ url: receiver.url }));

	/** Emits contact.created under the variant and returns the delivered body and the event's true time. */
	async function delivered(variant: VariantName | null): Promise<{ body: Record<string, unknown>; at: string }> {
		await sandbox.admin.setVariants(variant ? [variant] : []);
		const emitted = await sandbox.admin.emit('contact.created');
		await waitFor(() => receiver.received.length >= 1);
		return { body: JSON.parse(receiver.received[0].raw), at: emitted.timestamp };
	}

	it('default: ISO 8601 UTC with milliseconds, the instant of the event', async () => {
		const { body, at } = await delivered(null);
		expect(body.timestamp).toMatch(ISO_MS);
		expect(body.timestamp).toBe(at);
	});

	it.each([
		['webhook-timestamp-seconds', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/],
		['webhook-timestamp-offset', OFFSET],
		['webhook-timestamp-compact', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/],
		['webhook-timestamp-micros', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/],
	] as const)('%s: the same instant, in that form', async (variant, form) => {
		const { body, at } = await delivered(variant);
		const timestamp = body.timestamp as string;
		expect(timestamp).toMatch(form);
		expect(timestamp.slice(0, 19)).toBe(at.slice(0, 19));
		expect(Date.parse(timestamp)).toBe(Date.parse(`${at.slice(0, 19)}Z`) + (variant === 'webhook-timestamp-micros' ? Date.parse(at) % 1000 : 0));
	});

	it('webhook-timestamp-unparseable: a local date form, no ISO 8601', async () => {
		const { body, at } = await delivered('webhook-timestamp-unparseable');
		expect(body.timestamp).toBe(`${at.slice(8, 10)}.${at.slice(5, 7)}.${at.slice(0, 4)} um ${at.slice(11, 19)} Uhr`);
		expect(Number.isNaN(Date.parse(body.timestamp as string))).toBe(true);
	});

	it('webhook-timestamp-missing: event and data only', async () => {
		const { body } = await delivered('webhook-timestamp-missing');
		expect(Object.keys(body).sort()).toEqual(['data', 'event']);
	});
});

describe('future-events', () => {
	const emitRaw = (body: object) => axios.post(`${sandbox.url}/__sandbox/events`, body, { validateStatus: () => true });

	it('is needed for an event outside the six', async () => {
		const refused = await emitRaw({ event: 'invoice.created', data: { invoice_id: 1 } });
		expect(refused.status).toBe(422);
		expect(refused.data.error.fields.event[0]).toMatch(/future-events/);
	});

	it('delivers a new event name to subscriptions without an event filter only', async () => {
		await sandbox.admin.setVariants(['future-events']);
		const filtered = await startReceiver();
		try {
			await sandbox.admin.addWebhook({ url: filtered.url, events: ['contact.created'] });
			await sandbox.admin.addWebhook({ url: receiver.url });
			const emitted = await sandbox.admin.emit('invoice.created', { invoice_id: 7, number: 'INV-000007' });
			expect(emitted.deliveryIds).toHaveLength(1);
			await waitFor(() => receiver.received.length >= 1);
			expect(receiver.received[0].headers['x-erp-event']).toBe('invoice.created');
			expect(receiver.received[0].body).toEqual({ event: 'invoice.created', timestamp: expect.stringMatching(ISO_MS), data: { invoice_id: 7, number: 'INV-000007' } });
			expect(filtered.received).toEqual([]);
			expect((await sandbox.admin.events()).map((e) => e.event)).toEqual(['invoice.created']);
		} finally {
			await filtered.close();
		}
	});

	it('still refuses what cannot be an event name', async () => {
		await sandbox.admin.setVariants(['future-events']);
		expect((await emitRaw({ event: 'Invoice Created!' })).status).toBe(422);
		expect((await emitRaw({ event: 42 })).status).toBe(422);
		expect((await emitRaw({ event: 'invoice.created', data: 'x' })).status).toBe(422);
	});
});
