import type { ListMeta } from './types';

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toCount(value: unknown): number | undefined {
	const n = typeof value === 'string' ? Number(value) : value;
	return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/**
 * Opens the `{success, data, meta}` envelope. A body without the envelope is taken as the data itself,
 * so a service that answers bare JSON (or 204 with no body) still works.
 */
export function openEnvelope(body: unknown): { data: unknown; meta?: ListMeta } {
	if (!isObject(body) || !('data' in body)) {
		return { data: body === '' ? undefined : body };
	}
	const meta = isObject(body.meta)
		? {
				page: toCount(body.meta.page),
				perPage: toCount(body.meta.per_page),
				total: toCount(body.meta.total),
			}
		: undefined;
	return { data: body.data, meta };
}
