import { answerOf } from '../../../../nodes/shared/transport/client';
import type { UnclearResolution } from '../../../../nodes/shared/transport/types';
import { json, networkError } from '../fakes';
import type { Responder } from '../fakes';
import { clientFor, failureOf } from './clientFor';

const created = json(201, { success: true, data: { id: 41, first_name: 'Ada' } });
const serverError = () => json(500, { success: false, error: { code: 'server_error', message: 'boom' } });
const dropped = () => networkError('ECONNRESET', 'socket hang up');
const timedOut = () => networkError('ECONNABORTED', 'timeout of 30000ms exceeded');

/** A create whose unclear failures are settled by `verdicts` in turn (the last one again), counting the lookups. */
async function createWith(responder: Responder, verdicts: Array<UnclearResolution | Error>, maxRetries = 5) {
	const { client, calls, clock } = await clientFor(responder, { maxRetries });
	const asked: number[] = [];
	const find = async () => {
		asked.push(asked.length + 1);
		const verdict = verdicts[Math.min(asked.length, verdicts.length) - 1];
		if (verdict instanceof Error) throw verdict;
		return verdict;
	};
	const request = (async () => {
		let outcome = await client.exchange({ method: 'POST', path: '/contacts', doing: { action: 'create the contact', noun: 'contact' }, body: { first_name: 'Ada' }, expect: 'record' });
		while ('unclear' in outcome) outcome = await outcome.unclear.settle(find());
		return answerOf(outcome);
	})();
	return { request, calls, clock, asked };
}

describe("an unclear POST, settled by what the caller's lookup found (Unclear.settle)", () => {
	it.each([
		['a 500', serverError],
		['a timeout', timedOut],
	])('found after %s: the record found, marked recovered, and the POST not sent again', async (_what, failure) => {
		const found = { id: 41, first_name: 'Ada', email: 'ada@example.com' };
		const { request, calls, asked } = await createWith(failure, [{ found }]);
		expect(await request).toEqual({ statusCode: 200, data: found, recovered: true });
		expect([calls.length, asked.length]).toEqual([1, 1]);
	});

	it.each([
		['a 500', serverError],
		['a dropped connection', dropped],
	])('absent after %s: the POST is sent exactly once more, as a retry after a back-off', async (_what, failure) => {
		const { request, calls, clock, asked } = await createWith((_o, call) => (call === 1 ? failure() : created), [{ absent: true }]);
		expect(await request).toMatchObject({ statusCode: 201, data: { id: 41 } });
		expect([calls.map((call) => call.method), asked.length, clock.sleeps]).toEqual([['POST', 'POST'], 1, [375]]);
	});

	it('absent after a timeout proves nothing (the ERP may still be working on it): one POST, "may have done it"', async () => {
		const { request, calls, asked } = await createWith(timedOut, [{ absent: true }]);
		const error = await failureOf(request);
		expect([calls.length, asked.length]).toEqual([1, 1]);
		expect(error.message).toBe('The ERP did not answer within 30 s');
		expect(error.description).toMatch(/may have done it anyway/);
	});

	it('absent every time: stops at Max Retries and says running the item again is safe', async () => {
		const { request, calls, asked } = await createWith(serverError, [{ absent: true }], 1);
		const error = await failureOf(request);
		expect([calls.length, asked.length]).toEqual([2, 2]);
		expect(error.message).toBe('The ERP failed with a server error (500) after 1 retry');
		expect(error.description).toMatch(/^A lookup in the ERP showed that nothing was written, so running this item again is safe\./);
	});

	it('absent, then found after the second unclear failure: two POSTs, the record found', async () => {
		const { request, calls } = await createWith(serverError, [{ absent: true }, { found: { id: 41 } }]);
		expect(await request).toMatchObject({ data: { id: 41 }, recovered: true });
		expect(calls).toHaveLength(2);
	});

	it.each([
		['unknown', { unknown: true } as UnclearResolution],
		['a lookup that fails', new Error('lookup failed')],
	])('%s: one POST and the "may have done it" error', async (_what, verdict) => {
		const { request, calls } = await createWith(serverError, [verdict]);
		expect((await failureOf(request)).description).toMatch(/may have done it anyway/);
		expect(calls).toHaveLength(1);
	});

	it('is not asked after a clear failure, nor for a request that is retried on its own', async () => {
		for (const answer of [() => json(422, { errors: { email: ['is invalid'] } }), () => networkError('CERT_HAS_EXPIRED')]) {
			const { request, asked } = await createWith(answer, [{ found: { id: 1 } }]);
			await failureOf(request);
			expect(asked).toHaveLength(0);
		}
		const { client, calls } = await clientFor((_o, call) => (call === 1 ? serverError() : json(200, { data: { id: 3 } })));
		expect(await client.exchange({ method: 'PUT', path: '/contacts/3', doing: { action: 'update contact 3', noun: 'contact', id: 3 }, body: { company: 'x' } })).toHaveProperty('done');
		expect(calls).toHaveLength(2);
	});
});
