import type { Contact } from '../sandbox/types';
import { erpApi } from './support/erpApi';
import { finishedExecutions, nodeOutput } from './support/executions';
import { connect, type Session } from './support/session';
import { activeTrigger, settledDeliveries } from './support/triggers';

describe('ERP Trigger signature check, inside a real n8n', () => {
	let session: Session;
	beforeAll(async () => {
		session = await connect();
	});

	test('a delivery signed with the shared secret starts the workflow; one signed with another secret is refused (401) and starts nothing', async () => {
		const secret = await session.n8n.createCredential(`ERP API with webhook secret (e2e ${Date.now()})`, 'erpApi', {
			baseUrl: session.ctx.sandboxBaseUrl,
			apiToken: session.ctx.token,
			webhookSecret: 'whsec-7f3a9c',
		});
		const good = await activeTrigger(session, 'e2e signed trigger', ['contact.created'], { signedWith: secret, sandboxSecret: 'whsec-7f3a9c' });
		const forged = await activeTrigger(session, 'e2e signed trigger, wrong secret', ['contact.created'], {
			signedWith: secret,
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

		const [execution] = await finishedExecutions(session.n8n, good.workflow.id);
		expect(nodeOutput(execution, 'ERP Trigger')).toEqual([{ event: 'contact.created', timestamp: emitted.timestamp, data: expect.objectContaining({ id }) }]);
		expect(await session.n8n.executions(forged.workflow.id)).toEqual([]);
	});
});
