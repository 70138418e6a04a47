import { nonZero } from '../../reliability/support/batch';
import { eventsChecks, type EventsTally, tallyEvents, type Shipment } from '../../reliability/events/tallyEvents';

// The events scenario's judging, fed with made-up runs: each count must be able to fail.

let execution = 0;
const ship = (invoiceId: number, reportedBy = 'ERP Trigger', eventKey = `invoice.paid:${invoiceId}`): Shipment => ({ executionId: String(++execution), invoiceId, eventKey, reportedBy });

const eventsFailures = (t: EventsTally, tokenLeaks = 0) => nonZero(eventsChecks(t, tokenLeaks));

describe('tallyEvents', () => {
	it('passes a run where each payment shipped once, by either trigger, and no forged one', () => {
		const t = tallyEvents([1, 2], [9], [ship(1), ship(2, 'ERP Polling Trigger')]);
		expect(t).toMatchObject({ real: { events: 2, actedOnce: 2, lost: 0, actedTwice: 0, byWebhook: 1, byPoll: 1 }, forged: { invoices: 1, acted: 0 }, unknown: 0 });
		expect(eventsFailures(t)).toEqual([]);
	});

	it('a payment never shipped is lost; one shipped twice (same key or not) acted twice; a forged one shipped acted', () => {
		const t = tallyEvents([1, 2, 3], [9], [ship(2), ship(2, 'ERP Polling Trigger'), ship(3), ship(3, 'ERP Trigger', 'other'), ship(9)]);
		expect(t.real).toMatchObject({ lost: 1, actedTwice: 2, actedOnce: 0 });
		expect(eventsFailures(t)).toEqual(['1 payments never acted on', '2 payments acted on more than once', '1 forged payments acted on']);
		expect(t.examples).toEqual(expect.arrayContaining([expect.stringContaining('invoice 1 paid, never shipped')]));
	});

	it('a shipment of an invoice the run neither paid nor forged, and the tokens in an execution, fail', () => {
		const t = tallyEvents([1], [], [ship(1), ship(77)]);
		expect(eventsFailures(t, 3)).toEqual(['1 shipments of an invoice the run neither paid nor forged', '3 times the tokens show in the executions']);
	});
});
