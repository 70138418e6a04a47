import { ErpClient, type RequestContext } from '../shared/transport/client';
import { retryAfterOf } from '../shared/transport/errors';

/**
 * What reading through the transport came to, as a value: what `read` returned, or why it failed and, when the ERP's
 * pace (the turns of the requests before it) or a wait the ERP named leaves it no turn before the deadline, that wait.
 */
export type ReadResult<T> = { value: T } | { failed: unknown; waitMs?: number };

/** Reads within a deadline, `(deadlineAt, read) => result`: one client per deadline (the credential is read once for it). */
export type ReadByDeadline = <T>(deadlineAt: number, read: (client: ErpClient) => Promise<T>) => Promise<ReadResult<T>>;

/**
 * The transport throws when a request has no turn before its deadline (a NodeApiError carrying the wait); the
 * confirmation decides on that wait, so here it is a value.
 */
export function readByDeadline(context: RequestContext): ReadByDeadline {
	let current: { deadlineAt: number; client: ErpClient } | undefined;
	return async (deadlineAt, read) => {
		try {
			if (current?.deadlineAt !== deadlineAt) current = { deadlineAt, client: await ErpClient.create(context, { concurrency: 1, deadlineAt }) };
			return { value: await read(current.client) };
		} catch (error) {
			const waitMs = retryAfterOf(error);
			return waitMs === undefined ? { failed: error } : { failed: error, waitMs };
		}
	};
}
