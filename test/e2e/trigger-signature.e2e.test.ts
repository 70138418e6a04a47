import { createHmac } from 'node:crypto';

import { contentDigest } from '../../nodes/ErpTrigger/deliveryKey';
import type { Contact } from '../../sandbox/types';
import type { Credential } from '../../tooling/host/types';
import { erpApi } from '../../tooling/host/erpApi';
import { allExecutions, nodeOutput, waitForExecutions } from '../../tooling/host/executions';
import { connect, type Session } from '../../tooling/host/session';
import { activeTrigger, settledDeliveries } from '../../tooling/host/triggers';

const SECRET = 'whsec-7f3a9c';

describe('ERP Trigger signature check, inside a real n8n, with the Webhook Signing Secret of the ERP API credential', () => {
	let session: Session;
	let credential: Credential;
	beforeAll(async () => {
		session = await connect();
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
		const lastSeq = (await session.sandbox.events()).at(-1)?.seq ?? 0;

		const { id } = await erpApi<Contact>(session.ctx, 'POST', '/contacts', { first_name: 'Signed', email: 'signed@example.com' });

		const [emitted] = (await session.sandbox.events()).filter((e) => e.seq > lastSeq && e.event === 'contact.created');
		const deliveries = await settledDeliveries(session.sandbox, emitted.deliveryIds);
		const to = (url: string) => deliveries.find((d) => d.url === url);
		expect(to(good.url)?.attempts.map((a) => a.status)).toEqual([200]);
		// The sandbox retries a refused delivery (same bytes, same signature): every attempt is refused.
		expect(to(forged.url)?.attempts.map((a) => a.status)).toEqual([401, 401, 401, 401]);

		const [execution] = await waitForExecutions(session.n8n, good.workflow.id);
		expect(nodeOutput(execution, 'ERP Trigger')).toEqual([
			{ event: 'contact.created', timestamp: emitted.timestamp, deliveryKey: to(good.url)?.id, data: expect.objectContaining({ id }) },
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
			[{ ...content, deliveryKey: contentDigest(content) }],
		]);
	});
});
