import { createHmac } from 'node:crypto';

import { contentDigest } from '../../nodes/ErpTrigger/deliveryKey';
import type { EventName } from '../../sandbox/events';
import type { Contact, Employee, Invoice } from '../../sandbox/types';
import { erpApi } from '../../tooling/host/erpApi';
import { allExecutions, nodeOutput, waitForExecutions } from '../../tooling/host/executions';
import { activeTrigger, type ActiveTrigger, settledDeliveries } from '../../tooling/host/triggers';
import type { Credential } from '../../tooling/host/types';
import { useSession } from './setup/session';
import { lastEventSeq, overdueInvoice } from './support';

const session = useSession();

const EVENTS: EventName[] = ['contact.created', 'contact.updated', 'invoice.paid', 'invoice.overdue', 'product.low_stock', 'employee.hired'];

describe('ERP Trigger inside a real n8n: the sandbox delivers each event to an active workflow', () => {
	const triggers = new Map<EventName, ActiveTrigger>();

	beforeAll(async () => {
		// One workflow per event, each subscribed to every event: a delivery of another event must start nothing.
		for (const event of EVENTS) triggers.set(event, await activeTrigger(session, `e2e trigger ${event}`, [event]));
	});

	/**
	 * Makes the ERP emit the event through its API (as a user of the ERP would); answers the field of its data that
	 * holds the id of the record it is about, that id, and what the data must say of the record, read from the
	 * sandbox's own store afterwards.
	 */
	const cause: Record<EventName, () => Promise<{ idField: string; id: number; data: Record<string, unknown> }>> = {
		'contact.created': async () => {
			const { id } = await erpApi<Contact>(session.ctx, 'POST', '/contacts', { first_name: 'Ines', last_name: 'Ferreira', email: 'ines.ferreira@lusomar.pt', company: 'Lusomar Lda' });
			return { idField: 'id', id, data: { ...(await session.sandbox.record('contacts', id)) } };
		},
		'contact.updated': async () => {
			const [{ id }] = await session.sandbox.records('contacts');
			await erpApi(session.ctx, 'PUT', `/contacts/${id}`, { company: 'Renamed Trading Ltd' });
			return { idField: 'id', id, data: { ...(await session.sandbox.record('contacts', id)), changed_fields: ['company'] } };
		},
		'invoice.paid': async () => {
			const unpaid = (await session.sandbox.records('invoices')).find((i) => i.status === 'sent' || i.status === 'overdue');
			if (!unpaid) throw new Error('no unpaid invoice left in the sandbox');
			await erpApi(session.ctx, 'POST', `/invoices/${unpaid.id}/mark-paid`, { payment_method: 'bank_transfer', reference: 'SEPA-2211' });
			const { id, total, currency, number, contact_id, paid_at } = (await session.sandbox.record('invoices', unpaid.id)) as Invoice;
			return { idField: 'invoice_id', id, data: { invoice_id: id, amount: total, currency, number, contact_id, paid_at } };
		},
		'invoice.overdue': async () => {
			const { id, status, number, contact_id, amount_due, currency, due_date } = await overdueInvoice(session, 14);
			expect(status).toBe('overdue');
			return { idField: 'invoice_id', id, data: { invoice_id: id, number, contact_id, amount_due, currency, due_date, days_overdue: 14 } };
		},
		'product.low_stock': async () => {
			const product = (await session.sandbox.records('products')).find((p) => p.stock_total >= p.low_stock_threshold + 2);
			if (!product) throw new Error('no well-stocked product in the sandbox');
			const { id, sku, name, low_stock_threshold } = product;
			for (const [warehouse_id, quantity] of [[1, 0], [2, 0], [3, low_stock_threshold - 1]]) await session.sandbox.setStock({ product_id: id, warehouse_id, quantity });
			return { idField: 'product_id', id, data: { product_id: id, sku, name, low_stock_threshold, stock_total: expect.any(Number) } };
		},
		'employee.hired': async () => {
			const hire = { first_name: 'Tomás', last_name: 'Novak', email: `tomas.novak.${Date.now()}@northwind-industries.com`, department: 'Sales' };
			const { id } = await erpApi<Employee>(session.ctx, 'POST', '/employees', hire);
			return { idField: 'id', id, data: { ...(await session.sandbox.record('employees', id)) } };
		},
	};

	test.each(EVENTS)('%s starts its workflow with the event the sandbox sent', async (event) => {
		const since = await lastEventSeq(session.sandbox);
		const { idField, id, data } = await cause[event]();
		const ours = (await session.sandbox.events()).filter((e) => e.seq > since && e.event === event && (e.data as Record<string, unknown>)[idField] === id);
		expect(ours).toHaveLength(1);

		const deliveries = await settledDeliveries(session.sandbox, ours[0].deliveryIds);
		const urls = [...triggers.values()].map((t) => t.url);
		// Every trigger URL acknowledged on the first attempt, the five not listening to this event too.
		expect(deliveries.filter((d) => urls.includes(d.url)).map((d) => [d.url, d.delivered, d.attempts.map((a) => a.status)])).toEqual(
			expect.arrayContaining(urls.map((url) => [url, true, [200]])),
		);

		const trigger = triggers.get(event) as ActiveTrigger;
		const [execution] = await waitForExecutions(session.n8n, trigger.workflow.id);
		const toTrigger = deliveries.find((d) => d.url === trigger.url);
		const delivered = toTrigger?.body;
		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'ERP Trigger')).toEqual([{ ...(delivered as object), deliveryKey: toTrigger?.id, eventKey: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
		expect(delivered).toEqual({ event, timestamp: ours[0].timestamp, data: expect.objectContaining(data) });
	});

	test('each workflow ran once, for its own event only', async () => {
		for (const [event, trigger] of triggers) {
			const executions = await waitForExecutions(session.n8n, trigger.workflow.id);
			expect({ event, ran: executions.map((e) => nodeOutput(e, 'ERP Trigger')[0]?.event) }).toEqual({ event, ran: [event] });
		}
	});

	/** A trigger only the test posts to (the sandbox does not deliver to it), and a POST to it. */
	const ownTrigger = (events: string[]) => activeTrigger(session, `e2e trigger ${events.join(', ')}, posted to by the test`, events, { subscribed: false });
	const post = (trigger: ActiveTrigger, body: unknown, contentType = 'application/json') =>
		fetch(trigger.url, { method: 'POST', headers: { 'content-type': contentType }, body: JSON.stringify(body) });

	test('an event name the API document does not list is answered 200 and starts nothing when not selected', async () => {
		const trigger = await ownTrigger(['contact.created']);
		const unlisted = await post(trigger, { event: 'contact.deleted', timestamp: new Date().toISOString(), data: { id: 1 } });
		// Answered after the unlisted one: once its run is saved, a run the unlisted one started would show too.
		const listed = { event: 'contact.created', timestamp: new Date().toISOString(), data: { id: 2 } };
		await post(trigger, listed);

		expect(unlisted.status).toBe(200);
		expect(await unlisted.json()).toEqual({ message: 'Event contact.deleted is not selected in this trigger: ignored' });
		const executions = await waitForExecutions(session.n8n, trigger.workflow.id);
		expect(executions.map((e) => nodeOutput(e, 'ERP Trigger'))).toEqual([[{ ...listed, deliveryKey: contentDigest(listed), eventKey: expect.stringMatching(/^[0-9a-f]{64}$/) }]]);
	});

	test('with All Events, an unlisted event name sent as text/plain with a +0000 timestamp starts the workflow with the delivery as sent', async () => {
		const trigger = await ownTrigger(['*']);
		const delivery = { event: 'contact.archived', timestamp: '2026-11-23T10:00:00+0000', data: { id: 7, reason: 'duplicate' } };
		const response = await post(trigger, delivery, 'text/plain');

		expect(response.status).toBe(200);
		const executions = await waitForExecutions(session.n8n, trigger.workflow.id);
		expect(executions.map((e) => nodeOutput(e, 'ERP Trigger'))).toEqual([[{ ...delivery, deliveryKey: contentDigest(delivery), eventKey: expect.stringMatching(/^[0-9a-f]{64}$/) }]]);
	});

	test('a body that is not JSON is refused by n8n (422) before the trigger sees it; one that cannot be a delivery (no event name) by the trigger (400); nothing runs', async () => {
		const trigger = triggers.get('contact.created') as ActiveTrigger;
		const before = (await allExecutions(session.n8n, trigger.workflow.id)).length;
		const notJson = await fetch(trigger.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"event": "contact.created",' });
		const noEvent = await post(trigger, { timestamp: new Date().toISOString(), data: { id: 1 } });

		expect(notJson.status).toBe(422);
		expect(await notJson.json()).toMatchObject({ message: 'Failed to parse request body' });
		expect(noEvent.status).toBe(400);
		expect(await noEvent.json()).toEqual({ message: 'Field "event" is missing: name the event, e.g. "invoice.paid"' });
		expect(await allExecutions(session.n8n, trigger.workflow.id)).toHaveLength(before);
	});
});

const SECRET = 'whsec-7f3a9c';

describe('ERP Trigger signature check, inside a real n8n, with the Webhook Signing Secret of the ERP API credential', () => {
	let credential: Credential;
	beforeAll(async () => {
		credential = await session.n8n.createCredential(`ERP API with webhook secret (e2e ${Date.now()})`, 'erpApi', {
			baseUrl: session.ctx.sandboxBaseUrl,
			apiToken: session.ctx.token,
			webhookSecret: SECRET,
		});
	});

	test('a delivery signed with the shared secret starts the workflow; one signed with another secret is refused (401) and starts nothing', async () => {
		const good = await activeTrigger(session, 'e2e signed trigger', ['contact.created'], { signedWith: credential, sandboxSecret: SECRET });
		const forged = await activeTrigger(session, 'e2e signed trigger, wrong secret', ['contact.created'], {
			signedWith: credential,
			sandboxSecret: 'not-the-secret',
		});
		const since = await lastEventSeq(session.sandbox);

		const { id } = await erpApi<Contact>(session.ctx, 'POST', '/contacts', { first_name: 'Signed', email: 'signed@example.com' });

		const [emitted] = (await session.sandbox.events()).filter((e) => e.seq > since && e.event === 'contact.created');
		const deliveries = await settledDeliveries(session.sandbox, emitted.deliveryIds);
		const to = (url: string) => deliveries.find((d) => d.url === url);
		expect(to(good.url)?.attempts.map((a) => a.status)).toEqual([200]);
		// The sandbox retries a refused delivery (same bytes, same signature): every attempt is refused.
		expect(to(forged.url)?.attempts.map((a) => a.status)).toEqual([401, 401, 401, 401]);

		const [execution] = await waitForExecutions(session.n8n, good.workflow.id);
		expect(nodeOutput(execution, 'ERP Trigger')).toEqual([
			{ event: 'contact.created', timestamp: emitted.timestamp, deliveryKey: to(good.url)?.id, eventKey: expect.stringMatching(/^[0-9a-f]{64}$/), data: expect.objectContaining({ id }) },
		]);
		expect(await allExecutions(session.n8n, forged.workflow.id)).toEqual([]);
	});

	test('n8n hands the trigger the exact bytes: a pretty-printed body signed over them starts the workflow, the signature of its re-serialisation does not', async () => {
		const trigger = await activeTrigger(session, 'e2e signed trigger, raw bytes', ['*'], { signedWith: credential, subscribed: false });
		const content = { event: 'invoice.paid', timestamp: '2026-11-23T10:00:00+0000', data: { amount: 1.5, name: 'Müller' } };
		const pretty = '{\r\n  "event" : "invoice.paid",\n\t"data": {"amount": 1.50, "name": "M\\u00fcller"},   "timestamp":"2026-11-23T10:00:00+0000"\n}\n';
		const sign = (body: string) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
		const post = (signature: string) =>
			fetch(trigger.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-erp-signature': signature }, body: pretty });

		const reserialised = await post(sign(JSON.stringify(JSON.parse(pretty))));
		const exact = await post(sign(pretty));

		expect(reserialised.status).toBe(401);
		expect(exact.status).toBe(200);
		const executions = await waitForExecutions(session.n8n, trigger.workflow.id);
		expect(executions.map((e) => nodeOutput(e, 'ERP Trigger'))).toEqual([
			[{ ...content, deliveryKey: contentDigest(content), eventKey: expect.stringMatching(/^[0-9a-f]{64}$/) }],
		]);
	});
});
