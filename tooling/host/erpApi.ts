import type { E2eContext } from './context';

/** A direct call to the sandbox's API (not through n8n), to prepare records a test needs. */
export async function erpApi<T>(ctx: Pick<E2eContext, 'sandboxBaseUrl' | 'token'>, method: string, path: string, body?: unknown): Promise<T> {
	const response = await fetch(`${ctx.sandboxBaseUrl}${path}`, {
		method,
		headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`sandbox API answered ${response.status} to ${method} ${path}: ${text}`);
	return (JSON.parse(text) as { data: T }).data;
}
