import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_READONLY_TOKEN } from '../../../sandbox/server';
import type { FaultSpec } from '../../../sandbox/faults';
import { createContact } from '../../sandbox/fixtures';
import { SECRET, useTriggerHarness, type Answered } from './harness';

// The ERP failing while ERP Trigger version 2 reads a delivery's record back: the delivery is answered 503 with
// Retry-After (an ERP that retries sends it again) and still starts the workflow, on Unconfirmed as couldNotConfirm.
// A read that the ERP's pace or a wait it named holds past the answer's deadline (by up to a minute) is answered 200 at
// once ("it is confirmed … as soon as") and read in its turn. Confirmation Wait 0: the answer is due 1 s after the read began.

const h = useTriggerHarness();
const { sandbox } = h;
const once = { options: { confirmationWait: 0 } };
const ACCEPTED = { message: 'Event received: it is confirmed with the ERP as soon as its rate limit allows, then the workflow starts' };
afterEach(async () => {
	await sandbox.admin.clearFaults();
});

const delivery = (id: number) => ({ event: 'contact.created', timestamp: '2026-11-28T10:00:00.000Z', data: { id } });

function expectCouldNotConfirm(answer: Answered, retryAfter: string) {
	expect(answer.confirmed).toEqual([]);
	expect(answer.notConfirmed).toHaveLength(1);
	const [item] = answer.notConfirmed;
	expect(item).not.toHaveProperty('record');
	const { confirmation } = item as { confirmation: IDataObject };
	expect(confirmation).toEqual({ status: 'couldNotConfirm', reason: expect.stringMatching(/^Reading contact \d+ from the ERP failed: /) });
	const body = { message: 'Event received but the ERP could not confirm it now: send it again later', reason: confirmation.reason };
	expect({ status: answer.status, retryAfter: answer.retryAfter, body: answer.body }).toEqual({ status: 503, retryAfter, body });
	return String(confirmation.reason);
}

const failing = async (fault: FaultSpec, id: number) =>
	await sandbox.admin.queueFault({ match: { method: 'GET', path: `/contacts/${id}` }, fault, times: 1000 });

describe('a wait the ERP names that runs past the answer’s deadline but within a minute', () => {
	it('a 429 with Retry-After 2 s: answered 200 at once, read again after the wait and confirmed', async () => {
		const contact = await createContact(sandbox.api);
		await sandbox.admin.queueFault({ match: { method: 'GET', path: `/contacts/${contact.id}` }, fault: { kind: 'rateLimit', retryAfter: 2 } });
		// Its own token: the rate controller of this ERP and token holds every request for those 2 s (before the test of
		// a 120-s wait below, which holds this token's requests for longer than the file runs).
		await h.start(once, { credentials: { apiToken: DEFAULT_READONLY_TOKEN } });
		await h.mark();

		const answer = await h.post(delivery(contact.id));
		expect({ status: answer.status, retryAfter: answer.retryAfter, body: answer.body }).toEqual({ status: 200, retryAfter: null, body: ACCEPTED });
		expect(answer.confirmed).toEqual([expect.objectContaining({ record: contact, confirmation: { status: 'confirmed' } })]);
		expect(await h.reads()).toEqual([`GET /contacts/${contact.id}`, `GET /contacts/${contact.id}`]);
		expect(answer.call.returnedAt! - answer.call.answeredAt).toBeGreaterThanOrEqual(1_500);
	});
});

describe('the ERP failing during the read-back', () => {
	it.each([
		['a 500 after every retry', { kind: 'status', status: 500 }, /The ERP failed with a server error \(500\) after \d+ retr/, 2],
		// Whether a retry fits before the answer's deadline depends on the machine's speed (retries: transport tests).
		['a dropped connection every time', { kind: 'drop' }, /The connection to the ERP broke before it answered/, 1],
		// The sandbox logs the slow read once it has answered it, after the test.
		['an ERP that does not answer in time (the request ends at the read-back deadline)', { kind: 'latency', delayMs: 20_000 }, /The ERP did not answer within [\d.]+ s/, 0],
	] as const)('%s: 503 with Retry-After 30 and the item on Unconfirmed; sent again once the ERP is well, confirmed', async (_case, fault, reason, leastReads) => {
		const contact = await createContact(sandbox.api);
		await failing(fault, contact.id);
		await h.start(once);
		await h.mark();

		const failed = await h.post(delivery(contact.id));
		expect(expectCouldNotConfirm(failed, '30')).toMatch(reason);
		const reads = await h.reads();
		expect({ enough: reads.length >= leastReads, read: new Set(reads) }).toEqual({ enough: true, read: new Set(leastReads > 0 ? [`GET /contacts/${contact.id}`] : []) });

		await sandbox.admin.clearFaultQueue();
		const again = await h.post(delivery(contact.id));
		expect(again.status).toBe(200);
		expect(again.confirmed).toEqual([expect.objectContaining({ deliveryKey: failed.notConfirmed[0].deliveryKey, record: contact })]);
	});

	it('a 429 whose Retry-After is longer than a read may wait for its turn (a minute): 503 at once with the ERP’s own Retry-After', async () => {
		const contact = await createContact(sandbox.api);
		await sandbox.admin.queueFault({ match: { method: 'GET', path: `/contacts/${contact.id}` }, fault: { kind: 'rateLimit', retryAfter: 120 } });
		// Its own token: the rate controller of this ERP and token now holds every request for 120 s.
		await h.start(once, { credentials: { apiToken: DEFAULT_READONLY_TOKEN } });
		await h.mark();

		expect(expectCouldNotConfirm(await h.post(delivery(contact.id)), '120')).toMatch(/The ERP asks to wait 2 min before the next request \(429\)/);
		expect(await h.reads()).toEqual([`GET /contacts/${contact.id}`]);
	});
});

describe('a burst of deliveries against the ERP’s rate limit', () => {
	it('is confirmed at the pace the ERP allows, none refused or lost: 12 deliveries, 5 requests a second', async () => {
		const contacts = await Promise.all(Array.from({ length: 12 }, (_, i) => createContact(sandbox.api, { first_name: `C${i}` })));
		await sandbox.admin.setFaults({ rateLimit: { limit: 5, windowMs: 1000 } });
		// 12 reads at 5 a second need more than the default read-back time: sent all at once, they wait their turn. Before
		// the next test: the rate controller of this ERP and token learns the window here, as from any traffic before a
		// burst (met fresh, a read admitted a few ms before its answer's deadline fails as not answering in time).
		await h.start({ options: { confirmationWait: 10 } });

		const answers = await Promise.all(contacts.map((contact) => h.post(delivery(contact.id))));
		expect(answers.map((answer) => [answer.status, answer.confirmed[0]?.record])).toEqual(contacts.map((contact) => [200, contact]));
	});

	it('longer than the answer may wait: the deliveries whose read has no turn in time are answered 200 at once, read in their turn and confirmed; none refused or lost; one whose read then fails is could not confirm', async () => {
		const contacts = await Promise.all(Array.from({ length: 20 }, (_, i) => createContact(sandbox.api, { first_name: `B${i}` })));
		const failingContact = await createContact(sandbox.api, { first_name: 'Failing' });
		// Refused without a retry: its read fails as soon as it has its turn.
		await failing({ kind: 'status', status: 403 }, failingContact.id);
		await sandbox.admin.setFaults({ rateLimit: { limit: 5, windowMs: 1000 } });
		// Confirmation Wait 0: each answer is due 1 s after its read began; 20 reads at 5 a second take 4 s.
		await h.start(once);

		const posted = Promise.all(contacts.map((contact) => h.post(delivery(contact.id))));
		// After the twenty: its read waits behind theirs, past its answer's deadline.
		await new Promise((resolve) => setTimeout(resolve, 200));
		const failed = await h.post(delivery(failingContact.id));
		const answers = await posted;

		expect(answers.map((answer) => answer.confirmed[0]?.record)).toEqual(contacts);
		expect(answers.flatMap((answer) => answer.notConfirmed)).toEqual([]);
		expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
		const accepted = answers.filter((answer) => (answer.body as { message: string }).message === ACCEPTED.message);
		expect(answers.filter((answer) => !accepted.includes(answer)).map((answer) => answer.body)).toEqual(Array(20 - accepted.length).fill({ message: 'Event received and confirmed' }));
		expect(accepted.length).toBeGreaterThanOrEqual(10);
		const reads = (await sandbox.admin.requests()).filter((request) => request.method === 'GET' && request.status === 200);
		for (const answer of accepted) {
			// Answered first, then read: the read that confirmed it reached the ERP after the answer, and the trigger
			// returned its items (n8n starts the workflow then) after that read.
			const { id } = answer.confirmed[0].record as { id: number };
			const confirmingRead = reads.filter((request) => request.path === `/contacts/${id}`).at(-1)!;
			expect(Date.parse(confirmingRead.at)).toBeGreaterThanOrEqual(answer.call.answeredAt);
			expect(answer.call.returnedAt).toBeGreaterThanOrEqual(Date.parse(confirmingRead.at));
		}

		expect({ status: failed.status, retryAfter: failed.retryAfter, body: failed.body, confirmed: failed.confirmed }).toEqual({ status: 200, retryAfter: null, body: ACCEPTED, confirmed: [] });
		const waitedItsTurn = `\\(the ERP was answered 200 while this read waited its turn, so it will not send the event again\\)`;
		const reason = new RegExp(`^Reading contact ${failingContact.id} from the ERP failed: .+ ${waitedItsTurn}$`);
		expect(failed.notConfirmed).toEqual([expect.objectContaining({ ...delivery(failingContact.id), confirmation: { status: 'couldNotConfirm', reason: expect.stringMatching(reason) } })]);
	});
});

// A real event may arrive before the ERP's API shows the change (the sandbox's not-yet-visible fault, visibleAfterMs):
// the trigger reads again after 0.5, 1, 2, 4 s… within Confirmation Wait before calling it contradicted.

describe('a change the ERP does not show yet', () => {
	// The stock of product.low_stock is read again with its product: confirmForged.test.ts (a restocked product).
	it('contact.created: 404 at the first reads, confirmed once visible', async () => {
		await sandbox.admin.addWebhook({ url: (await h.start()).url, secret: SECRET });
		await sandbox.admin.setFaults({ visibleAfterMs: 1_200 });
		await h.mark();
		const { data } = await sandbox.api.post('/contacts', { first_name: 'Anna' });
		const id = data.data.id as number;

		const answer = await h.delivered();
		expect(answer.status).toBe(200);
		expect(answer.confirmed).toEqual([expect.objectContaining({ confirmation: { status: 'confirmed' }, record: expect.objectContaining({ id, first_name: 'Anna' }) })]);
		const reads = await h.reads();
		// More than once: how often depends on when the change shows (1.2 s after the write).
		expect({ again: reads.length > 1, reads }).toEqual({ again: true, reads: Array(reads.length).fill(`GET /contacts/${id}`) });
	});
});
