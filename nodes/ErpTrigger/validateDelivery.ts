import type { IDataObject } from 'n8n-workflow';


/** The event kinds of the API document, section 6. */
export const ERP_EVENTS = [
	'contact.created',
	'contact.updated',
	'invoice.paid',
	'invoice.overdue',
	'product.low_stock',
	'employee.hired',
] as const;

export type ErpEvent = (typeof ERP_EVENTS)[number];

function isErpEvent(value: unknown): value is ErpEvent {
	return typeof value === 'string' && (ERP_EVENTS as readonly string[]).includes(value);
}

/** The largest body accepted: 1 MiB. The ERP's deliveries are a few kilobytes; n8n itself accepts up to 16 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A delivery as the API document describes it: `{event, timestamp, data}`. */
export interface ErpDelivery {
	event: ErpEvent;
	timestamp: string;
	data: IDataObject;
}

export type Validation = { delivery: ErpDelivery } | { reason: string };

const ISO_TIMESTAMP =
	/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/** An ISO 8601 date-time with seconds and a zone (`Z` or `±hh:mm`) that names a real instant. */
export function isIsoTimestamp(value: unknown): value is string {
	if (typeof value !== 'string') return false;
	const parts = ISO_TIMESTAMP.exec(value);
	if (parts === null) return false;
	const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = parts
		.slice(1)
		.map((part) => Number(part ?? 0));
	const date = new Date(Date.UTC(year, month - 1, day));
	return (
		date.getUTCMonth() === month - 1 &&
		date.getUTCDate() === day &&
		hour < 24 &&
		minute < 60 &&
		second < 60 &&
		offsetHours < 24 &&
		offsetMinutes < 60
	);
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The media type of a Content-Type header, without parameters, lower case. */
function mediaType(contentType: string | undefined): string | undefined {
	return contentType?.split(';')[0].trim().toLowerCase();
}

const SHAPE = 'a JSON object with event, timestamp and data';
const USE_AN_EVENT = `use one of ${ERP_EVENTS.join(', ')}`;

/**
 * Checks that a request carries a delivery: a JSON object body of at most 1 MiB with a known `event`, an ISO 8601
 * `timestamp` and an object `data`. Returns the delivery, or why it must be rejected (answered 400).
 */
export function validateDelivery(contentType: string | undefined, rawBody: Buffer | undefined): Validation {
	if (mediaType(contentType) !== 'application/json') return { reason: 'Content-Type must be application/json' };
	if (rawBody === undefined || rawBody.length === 0) return { reason: `Body is empty: send ${SHAPE}` };
	if (rawBody.length > MAX_BODY_BYTES) return { reason: `Body is larger than ${MAX_BODY_BYTES} bytes: send at most 1 MiB` };

	let body: unknown;
	try {
		body = JSON.parse(rawBody.toString('utf8'));
	} catch {
		return { reason: `Body is not valid JSON: send ${SHAPE}` };
	}
	if (!isObject(body)) return { reason: `Body must be ${SHAPE}` };

	const { event, timestamp, data } = body;
	if (event === undefined) return { reason: `Field "event" is missing: ${USE_AN_EVENT}` };
	if (!isErpEvent(event)) return { reason: `Unknown event ${JSON.stringify(event)} in field "event": ${USE_AN_EVENT}` };
	if (!isIsoTimestamp(timestamp)) return { reason: 'Field "timestamp" must be an ISO 8601 date-time such as 2026-01-31T09:30:00Z' };
	if (!isObject(data)) return { reason: 'Field "data" must be an object' };
	return { delivery: { event, timestamp, data } };
}
