// Transport unit tests: the client over a scripted HTTP helper and fake time (probe.ts runs it inside n8n).
import { NodeApiError } from 'n8n-workflow';

import { ErpClient } from '../../../../nodes/shared/transport/client';
import type { TransportOptions } from '../../../../nodes/shared/transport/types';
import { fakeContext, fakeTime } from '../fakes';
import type { Responder } from '../fakes';

/** A client over a scripted HTTP helper, in fake time whose sleeps return at once (recorded in `clock.sleeps`). */
export async function clientFor(
	responder: Responder,
	options: Partial<TransportOptions> = {},
	credentials?: { baseUrl: string; apiToken: string },
) {
	const { ctx, calls } = fakeContext(responder, credentials);
	const clock = fakeTime('auto');
	const client = await ErpClient.create(ctx, options);
	return { client, calls, clock };
}

/** The NodeApiError the promise rejects with (the test fails when it resolves or rejects with anything else). */
export async function failureOf(promise: Promise<unknown>): Promise<NodeApiError> {
	const error = await promise.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(NodeApiError);
	return error as NodeApiError;
}
