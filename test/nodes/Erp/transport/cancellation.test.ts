import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { ErpClient } from '../../../../nodes/shared/transport/client';
import { fakeContext, fakeTime, flush, json } from '../fakes';
import type { Responder } from '../fakes';

/** A context with n8n's cancel signal, on real time: a wait that is not cut short hangs the test. */
async function cancellable(responder: Responder, concurrency = 1) {
	const cancel = new AbortController();
	const { ctx, calls } = fakeContext(responder);
	Object.assign(ctx, { getExecutionCancelSignal: () => cancel.signal });
	const client = await ErpClient.create(ctx, { concurrency });
	return { client, calls, cancel };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
	return await promise.then(
		() => undefined,
		(error: unknown) => error,
	);
}

/** Answers like n8n's helper once the execution is cancelled: an error wrapping axios' CanceledError. */
function answerNeverButAbort(signal: AbortSignal): Promise<never> {
	return new Promise((_resolve, reject) => {
		signal.addEventListener('abort', () =>
			reject(Object.assign(new Error('canceled'), { cause: { code: 'ERR_CANCELED', name: 'CanceledError', message: 'canceled' } })),
		);
	});
}

describe('a cancelled execution (n8n’s abort signal)', () => {
	it('ends a back-off wait at once and sends nothing more', async () => {
		const { client, calls, cancel } = await cancellable(() => json(429, {}, { 'retry-after': '200' }));
		const failed = rejection(client.request({ method: 'GET', path: '/contacts', doing: { action: 'list contacts', noun: 'contact' }, itemIndex: 1 }));
		while (calls.length === 0) await flush();
		cancel.abort();
		const error = await failed;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toBe('The execution was cancelled: no further request was sent to the ERP');
		expect(calls).toHaveLength(1);
	});

	it('ends the wait of a request held at the shared 429 gate', async () => {
		const { client, calls, cancel } = await cancellable(() => json(429, {}, { 'retry-after': '200' }), 2);
		const first = rejection(client.request({ method: 'GET', path: '/contacts/1', doing: { action: 'read contact 1', noun: 'contact', id: 1 } }));
		while (calls.length === 0) await flush();
		const second = rejection(client.request({ method: 'GET', path: '/contacts/2', doing: { action: 'read contact 2', noun: 'contact', id: 2 } }));
		await flush();
		cancel.abort();
		expect(await first).toBeInstanceOf(NodeOperationError);
		expect(await second).toBeInstanceOf(NodeOperationError);
		expect(calls).toHaveLength(1);
	});

	it.each(['GET', 'POST'] as const)('is not taken for a network failure when it breaks off a %s on the wire', async (method) => {
		const cancel = new AbortController();
		const { ctx, calls } = fakeContext(() => answerNeverButAbort(cancel.signal));
		Object.assign(ctx, { getExecutionCancelSignal: () => cancel.signal });
		// Back-off sleeps that return at once: a retry would be sent right away.
		fakeTime('auto');
		const client = await ErpClient.create(ctx, {});
		const failed = rejection(client.request({ method, path: '/contacts', doing: { action: 'list or create contacts', noun: 'contact' }, body: method === 'POST' ? { first_name: 'A' } : undefined }));
		while (calls.length === 0) await flush();
		cancel.abort();
		const error = await failed;
		// Neither retried (GET) nor reported as a broken connection that "may have" created something (POST).
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error).not.toBeInstanceOf(NodeApiError);
		expect(calls).toHaveLength(1);
	});

	it('sends nothing once the execution is cancelled', async () => {
		const { client, calls, cancel } = await cancellable(() => json(200, { data: {} }));
		cancel.abort();
		expect(await rejection(client.request({ method: 'GET', path: '/contacts/1', doing: { action: 'read contact 1', noun: 'contact', id: 1 } }))).toBeInstanceOf(NodeOperationError);
		expect(calls).toHaveLength(0);
	});
});
