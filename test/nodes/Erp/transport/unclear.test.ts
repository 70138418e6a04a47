import type { IDataObject } from 'n8n-workflow';

import { answerOf } from '../../../../nodes/shared/transport/client';
import type { UnclearResolution } from '../../../../nodes/shared/transport/types';
import { json, networkError } from '../fakes';
import type { Responder } from '../fakes';
import { clientFor, failureOf } from './clientFor';

const created = json(201, { success: true, data: { id: 41, first_name: 'Ada' } });
const serverError = json(500, { success: false, error: { code: 'server_error', message: 'boom' } });

/** A lookup that answers the given verdicts in turn and counts its calls. */
function lookup(...verdicts: Array<UnclearResolution | Error>) {
	const asked: number[] = [];
	const find = async () => {
		asked.push(asked.length + 1);
		const verdict = verdicts[Math.min(asked.length, verdicts.length) - 1];
		if (verdict instanceof Error) throw verdict;
		return verdict;
	};
	return { asked, find };
}

async function createWith(responder: Responder, resolver: ReturnType<typeof lookup>, maxRetries = 5) {
	const { client, calls, clock } = await clientFor(responder, { maxRetries });
	const request = (async () => {
		let outcome = await client.exchange({ method: 'POST', path: '/contacts', doing: { action: 'create the contact', noun: 'contact' }, body: { first_name: 'Ada' }, expect: 'record' });
		while ('unclear' in outcome) outcome = await outcome.unclear.settle(resolver.find());
		return answerOf(outcome);
	})();
	return { request, calls, clock };
}

describe('an unclear POST, settled by what the caller\'s lookup found (Unclear.settle)', () => {
	it('found: the request succeeds with the record found, marked recovered, and the POST is not sent again', async () => {
		const found: IDataObject = { id: 41, first_name: 'Ada', email: 'ada@example.com' };
		const resolver = lookup({ found });
		const { request, calls } = await createWith(() => serverError, resolver);
		expect(await request).toEqual({ statusCode: 200, data: found, recovered: true });
		expect(calls).toHaveLength(1);
		expect(resolver.asked).toHaveLength(1);
	});

	it('absent: the POST is sent exactly once more, as a retry after a back-off', async () => {
		const resolver = lookup({ absent: true });
		const { request, calls, clock } = await createWith((_o, call) => (call === 1 ? serverError : created), resolver);
		expect(await request).toMatchObject({ statusCode: 201, data: { id: 41 } });
		expect(calls.map((call) => call.method)).toEqual(['POST', 'POST']);
		expect(resolver.asked).toHaveLength(1);
		expect(clock.sleeps).toEqual([375]);
	});

	it('absent after a dropped connection: sent again as well', async () => {
		const resolver = lookup({ absent: true });
		const { request, calls } = await createWith((_o, call) => (call === 1 ? networkError('ECONNRESET', 'socket hang up') : created), resolver);
		await request;
		expect(calls).toHaveLength(2);
	});

	it('absent after a timeout proves nothing (the ERP may still be working on it): one POST, "may have done it"', async () => {
		const resolver = lookup({ absent: true });
		const { request, calls } = await createWith(() => networkError('ECONNABORTED', 'timeout of 30000ms exceeded'), resolver);
		const error = await failureOf(request);
		expect(calls).toHaveLength(1);
		expect(resolver.asked).toHaveLength(1);
		expect(error.message).toBe('The ERP did not answer within 30 s');
		expect(error.description).toMatch(/may have done it anyway/);
	});

	it('found after a timeout: the record found', async () => {
		const resolver = lookup({ found: { id: 41 } });
		const { request, calls } = await createWith(() => networkError('ETIMEDOUT', 'connect ETIMEDOUT'), resolver);
		expect(await request).toMatchObject({ data: { id: 41 }, recovered: true });
		expect(calls).toHaveLength(1);
	});

	it('absent every time: stops at Max Retries and says running the item again is safe', async () => {
		const resolver = lookup({ absent: true });
		const { request, calls } = await createWith(() => serverError, resolver, 1);
		const error = await failureOf(request);
		expect(calls).toHaveLength(2);
		expect(resolver.asked).toHaveLength(2);
		expect(error.message).toBe('The ERP failed with a server error (500) after 1 retry');
		expect(error.description).toMatch(/^A lookup in the ERP showed that nothing was written, so running this item again is safe\./);
	});

	it('absent, then found after the second unclear failure: two POSTs, the record found', async () => {
		const resolver = lookup({ absent: true }, { found: { id: 41 } });
		const { request, calls } = await createWith(() => serverError, resolver);
		expect(await request).toMatchObject({ data: { id: 41 }, recovered: true });
		expect(calls).toHaveLength(2);
	});

	it.each([
		['unknown', { unknown: true } as UnclearResolution],
		['a lookup that fails', new Error('lookup failed')],
	])('%s: one POST and the "may have done it" error', async (_what, verdict) => {
		const resolver = lookup(verdict);
		const { request, calls } = await createWith(() => serverError, resolver);
		const error = await failureOf(request);
		expect(calls).toHaveLength(1);
		expect(error.description).toMatch(/may have done it anyway/);
	});

	it('is not asked after a clear failure, nor for a request that is retried on its own', async () => {
		for (const answer of [() => json(422, { errors: { email: ['is invalid'] } }), () => networkError('CERT_HAS_EXPIRED')]) {
			const resolver = lookup({ found: { id: 1 } });
			await failureOf((await createWith(answer, resolver)).request);
			expect(resolver.asked).toHaveLength(0);
		}
		const resolver = lookup({ found: { id: 1 } });
		const { client, calls } = await clientFor((_o, call) => (call === 1 ? serverError : json(200, { data: { id: 3 } })));
		expect(await client.exchange({ method: 'PUT', path: '/contacts/3', doing: { action: 'update contact 3', noun: 'contact', id: 3 }, body: { company: 'x' } })).toHaveProperty('done');
		expect(calls).toHaveLength(2);
		expect(resolver.asked).toHaveLength(0);
	});
});
