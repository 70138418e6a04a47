import { nonZero } from '../../reliability/support/batch';
import { confirmationChecks, type ConfirmationTally, tallyConfirmations, type SeenItem, type SentDelivery } from '../../reliability/confirmations/tallyConfirmations';

// The confirmation scenario's judging, fed with made-up runs: each count must be able to fail.

const real = (id: string, statuses: Array<number | undefined> = [200]): SentDelivery => ({ id, event: 'invoice.paid', forged: false, statuses });
const forged = (id: string): SentDelivery => ({ id, event: 'invoice.paid', forged: true, statuses: [200] });
let execution = 0;
const item = (deliveryKey: string, status: SeenItem['status'], reason?: string, acted = status === 'confirmed'): SeenItem => ({
	executionId: String(++execution),
	deliveryKey,
	status,
	...(reason ? { reason } : {}),
	acted,
});

const confirmationFailures = (t: ConfirmationTally, tokenLeaks: number) => nonZero(confirmationChecks(t, tokenLeaks));

describe('tallyConfirmations', () => {
	it('passes a run where every real one is confirmed and every forged one contradicted', () => {
		const t = tallyConfirmations([real('r1'), forged('f1')], [item('r1', 'confirmed'), item('f1', 'contradicted', 'not paid')]);
		expect(t).toMatchObject({ real: { deliveries: 1, confirmed: 1, lost: 0 }, forged: { deliveries: 1, confirmed: 0, contradicted: 1 }, startedTwice: 0 });
		expect(confirmationFailures(t, 0)).toEqual([]);
	});

	it('a real one passed on as could not confirm (its 503 sent again) counts once, not lost', () => {
		const t = tallyConfirmations([real('r1', [503, 503])], [item('r1', 'couldNotConfirm', 'ERP failed'), item('r1', 'couldNotConfirm', 'ERP failed')]);
		expect(t.real).toMatchObject({ deliveries: 1, confirmed: 0, couldNotConfirm: 1, lost: 0, answered503: 1 });
		expect(confirmationFailures(t, 0)).toEqual([]);
	});

	it('a real one on no output, or only contradicted, is lost and refused', () => {
		const t = tallyConfirmations([real('r1'), real('r2')], [item('r2', 'contradicted', 'no such invoice')]);
		expect(t.real).toMatchObject({ lost: 2, refused: 1 });
		expect(confirmationFailures(t, 0)).toEqual([
			'2 real deliveries lost (neither confirmed nor passed on as could not confirm)',
			'1 real deliveries called contradicted or unconfirmable',
		]);
	});

	it('a forged one confirmed, or reaching the acting step, fails', () => {
		const t = tallyConfirmations([forged('f1'), forged('f2')], [item('f1', 'confirmed'), item('f2', 'contradicted', 'x', true)]);
		expect(t.forged.confirmed).toBe(2);
		expect(confirmationFailures(t, 0)).toContain('2 forged deliveries on Confirmed or at the acting step');
	});

	it('confirmed in two executions, could not confirm without a reason, unknown keys and token leaks fail', () => {
		const t = tallyConfirmations([real('r1'), real('r2')], [item('r1', 'confirmed'), item('r1', 'confirmed'), item('r2', 'couldNotConfirm'), item('zz', 'confirmed')]);
		expect(t).toMatchObject({ startedTwice: 1, withoutReason: 1, unknownKeys: 1 });
		expect(confirmationFailures(t, 2)).toEqual([
			'1 deliveries confirmed in more than one execution',
			'1 could-not-confirm items without a reason',
			'1 items for a delivery the sandbox never sent',
			'2 times the tokens show in the executions',
		]);
	});
});
