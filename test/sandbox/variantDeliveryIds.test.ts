import { useTestSandbox, waitFor, type VariantName } from '../../tooling/harness/sandbox';
import { useReceiver } from './receiver';

// The header that names a delivery, kept on its retries: X-Erp-Delivery by default, Webhook-Id (Standard Webhooks)
// or none at all under the variants.

const sandbox = useTestSandbox();
const receiver = useReceiver();

const ID_HEADERS = ['x-erp-delivery', 'webhook-id', 'x-delivery-id', 'x-event-id', 'x-webhook-id', 'idempotency-key'];

/** Emits contact.created under the variant, its first attempt answered 500, and returns both attempts and the id. */
async function deliveredTwice(variant: VariantName | null) {
	await sandbox.admin.setVariants(variant ? [variant] : []);
	await sandbox.admin.addWebhook({ url: receiver.url });
	receiver.answerWith([500]);
	const { deliveryIds } = await sandbox.admin.emit('contact.created');
	await waitFor(() => receiver.received.length >= 2);
	const idHeaders = receiver.received.map((r) => Object.keys(r.headers).filter((name) => ID_HEADERS.includes(name)));
	return { attempts: receiver.received, idHeaders, id: deliveryIds[0] };
}

describe('the delivery id header, the same on a retry', () => {
	it('default: X-Erp-Delivery', async () => {
		const { attempts, idHeaders, id } = await deliveredTwice(null);

		expect(idHeaders).toEqual([['x-erp-delivery'], ['x-erp-delivery']]);
		expect(attempts.map((a) => a.headers['x-erp-delivery'])).toEqual([id, id]);
		expect(attempts[1].raw).toBe(attempts[0].raw);
	});

	it('webhook-id-header: Webhook-Id instead', async () => {
		const { attempts, idHeaders, id } = await deliveredTwice('webhook-id-header');

		expect(idHeaders).toEqual([['webhook-id'], ['webhook-id']]);
		expect(attempts.map((a) => a.headers['webhook-id'])).toEqual([id, id]);
		expect(attempts[1].raw).toBe(attempts[0].raw);
	});

	it('no-delivery-id: no id header at all; the retry is the same body again', async () => {
		const { attempts, idHeaders } = await deliveredTwice('no-delivery-id');

		expect(idHeaders).toEqual([[], []]);
		expect(attempts[0].headers['x-erp-event']).toBe('contact.created');
		expect(attempts[1].raw).toBe(attempts[0].raw);
	});
});
