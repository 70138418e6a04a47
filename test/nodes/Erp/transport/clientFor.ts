// Transport unit tests: the client of one node run over a scripted HTTP helper.
import { NodeApiError } from 'n8n-workflow';

import { ErpClient } from '../../../../nodes/shared/transport/client';
import type { ErpRequest, TransportOptions } from '../../../../nodes/shared/transport/types';
import { fakeContext, fakeTime, freshErp } from '../fakes';
import type { Responder } from '../fakes';

/** One node run: a client of its own over a scripted HTTP helper, against `erp` (an ERP of its own unless given), with
 * n8n's cancel signal (`cancel`). Time is whatever the test set. */
export async function run(responder: Responder, options: Partial<TransportOptions> = {}, erp = freshErp()) {
	const cancel = new AbortController();
	const { ctx, calls } = fakeContext(responder, erp);
	Object.assign(ctx, { getExecutionCancelSignal: () => cancel.signal });
	const client = await ErpClient.create(ctx, options);
	return { client, calls, cancel };
}

/** As `run`, in fake time whose sleeps return at once (recorded in `clock.sleeps`). */
export async function clientFor(responder: Responder, options: Partial<TransportOptions> = {}, erp?: { baseUrl: string; apiToken: string }) {
	const clock = fakeTime('auto');
	return { ...(await run(responder, options, erp)), clock };
}

/** What the promise rejects with (undefined when it resolves). */
export const rejection = async (promise: Promise<unknown>): Promise<unknown> => await promise.then(() => undefined, (error: unknown) => error);

/** The NodeApiError the promise rejects with (the test fails when it resolves or rejects with anything else). */
export async function failureOf(promise: Promise<unknown>): Promise<NodeApiError> {
	const error = await rejection(promise);
	expect(error).toBeInstanceOf(NodeApiError);
	return error as NodeApiError;
}

/** A GET of one record (`id`), or of the contact list. */
export const read = (id?: number, noun = 'contact'): ErpRequest =>
	id === undefined ? { method: 'GET', path: `/${noun}s`, doing: { action: `list ${noun}s`, noun } } : { method: 'GET', path: `/${noun}s/${id}`, doing: { action: `read ${noun} ${id}`, noun, id } };
