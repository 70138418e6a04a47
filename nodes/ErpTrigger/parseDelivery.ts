import type { IDataObject } from 'n8n-workflow';

/**
 * A delivery as the API document describes it: `{event, timestamp, data}`. `event` is any name, not only the six
 * the document lists (a later API version may add some). `timestamp` is passed on exactly as the ERP sent it, in
 * whatever form, and left out when the ERP sent none: it is never a reason to refuse a delivery.
 */
export interface ErpDelivery {
	event: string;
	timestamp?: IDataObject[string];
	data: IDataObject;
}

export type Parsed = { delivery: ErpDelivery } | { reason: string };

const SHAPE = 'send a JSON object with event, timestamp and data';

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body as JSON (UTF-8, as JSON is, a leading byte-order mark ignored), or undefined when it is not JSON. */
function parseJson(rawBody: Buffer): unknown {
	const text = rawBody.toString('utf8').replace(/^\uFEFF/, '');
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

/**
 * Reads a delivery from the raw body, whatever the request's Content-Type (an ERP that labels its JSON text/plain
 * still delivers) and size (n8n's own body limit applies). Refuses, with the reason answered 400, only what cannot
 * be a delivery: no body, a body that is not a JSON object, no event name, or data that is not an object.
 */
export function parseDelivery(rawBody: Buffer | undefined): Parsed {
	if (rawBody?.length === 0) return { reason: `Body is empty: ${SHAPE}` };
	const body = rawBody === undefined ? undefined : parseJson(rawBody);
	if (!isObject(body)) return { reason: `Body is not a JSON object: ${SHAPE}` };

	const { event, data } = body;
	if (event === undefined) return { reason: 'Field "event" is missing: name the event, e.g. "invoice.paid"' };
	if (typeof event !== 'string' || event.trim() === '') {
		return { reason: 'Field "event" must be the event\'s name, a non-empty string such as "invoice.paid"' };
	}
	if (!isObject(data)) return { reason: 'Field "data" must be a JSON object with the event\'s content, e.g. {"invoice_id": 7}' };
	return { delivery: 'timestamp' in body ? { event, timestamp: body.timestamp, data } : { event, data } };
}
