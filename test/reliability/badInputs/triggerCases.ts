import { deliveryBody, hmacHex, SECRET_HEADER, type TriggerKind } from './triggerWorkflows';

export interface TriggerRequest {
	method: 'GET' | 'POST';
	headers: Record<string, string>;
	body?: string;
}

/**
 * A hostile or unusual delivery to an active ERP Trigger. `request` builds it from the case's marker (put where a
 * run it started would show it) and the trigger's real secret.
 */
export interface TriggerCase {
	id: string;
	title: string;
	trigger: TriggerKind;
	request: (marker: string, secret: string) => TriggerRequest;
	/**
	 * `fix` null: only for an answer n8n gives itself before the trigger runs, which names the problem but no fix.
	 * `started`: a real delivery, whose run must start; otherwise no run may start.
	 */
	expect: { status: number; field: RegExp; fix: RegExp | null; started?: true };
	/** 'n8n': n8n answers this request itself before the trigger runs; the answer is n8n's, not the package's. */
	answeredBy?: 'n8n';
}

const JSON_TYPE = { 'content-type': 'application/json' };
const post = (body: string, headers: Record<string, string> = JSON_TYPE): TriggerRequest => ({ method: 'POST', headers, body });
const delivery = (marker: string, overrides: Record<string, unknown> = {}) => JSON.stringify(deliveryBody(marker, overrides));
const NOT_AN_OBJECT = { status: 400, field: /Body/, fix: /send a JSON object with event, timestamp and data/ };
const BAD_EVENT = { status: 400, field: /"event"/, fix: /non-empty string such as "invoice\.paid"/ };
const BAD_DATA = { status: 400, field: /"data"/, fix: /must be a JSON object/ };
/** A real delivery, however unusual: answered 200 "Event received" (nothing to fix), and its run starts. */
const ACCEPTED = { status: 200, field: /Event received/, fix: /Event received/, started: true } as const;
const SAME_SECRET = /Webhook Signing Secret of the ERP API credential/;

export const TRIGGER_CASES: TriggerCase[] = [
	{ id: 'not-json', title: 'Body that is not JSON, sent as application/json', trigger: 'plain', request: (m) => post(`{"event": "contact.created", "marker": "${m}",`), expect: { status: 422, field: /request body/, fix: null }, answeredBy: 'n8n' },
	{ id: 'not-json-text', title: 'Body that is not JSON, sent as text/plain', trigger: 'plain', request: (m) => post(`event=contact.created&marker=${m}`, { 'content-type': 'text/plain' }), expect: NOT_AN_OBJECT },
	{ id: 'json-array', title: 'A JSON array of deliveries', trigger: 'plain', request: (m) => post(`[${delivery(m)}]`), expect: NOT_AN_OBJECT },
	{ id: 'empty-body', title: 'An empty body', trigger: 'plain', request: () => post(''), expect: { status: 400, field: /Body is empty/, fix: /send a JSON object with event, timestamp and data/ } },
	{ id: 'unknown-event', title: 'Event "contact.deleted", not one the trigger listens to', trigger: 'plain', request: (m) => post(delivery(m, { event: 'contact.deleted' })), expect: { status: 200, field: /contact\.deleted/, fix: /not selected in this trigger: ignored/ } },
	{ id: 'unknown-event-all-events', title: 'Event "contact.merged" (not in the API document) to an All Events trigger', trigger: 'hmac', request: (m, secret) => { const body = delivery(m, { event: 'contact.merged' }); return post(body, { ...JSON_TYPE, 'x-erp-signature': hmacHex(secret, body) }); }, expect: ACCEPTED },
	{ id: 'event-number', title: 'Event given as the number 42', trigger: 'plain', request: (m) => post(delivery(m, { event: 42 })), expect: BAD_EVENT },
	{ id: 'event-empty', title: 'Event given as an empty string', trigger: 'plain', request: (m) => post(delivery(m, { event: '' })), expect: BAD_EVENT },
	{ id: 'missing-event', title: 'No event field', trigger: 'plain', request: (m) => post(delivery(m, { event: undefined })), expect: { status: 400, field: /"event"/, fix: /name the event/ } },
	{ id: 'missing-timestamp', title: 'No timestamp field (a real delivery: passed on without one)', trigger: 'plain', request: (m) => post(delivery(m, { timestamp: undefined })), expect: ACCEPTED },
	{ id: 'timestamp-text', title: 'Timestamp "yesterday" (a real delivery: passed on as sent)', trigger: 'plain', request: (m) => post(delivery(m, { timestamp: 'yesterday' })), expect: ACCEPTED },
	{ id: 'timestamp-offset', title: 'Timestamp "2026-11-23T10:00:00+0000" (ISO 8601 without the colon)', trigger: 'plain', request: (m) => post(delivery(m, { timestamp: '2026-11-23T10:00:00+0000' })), expect: ACCEPTED },
	{ id: 'missing-data', title: 'No data field', trigger: 'plain', request: (m) => post(delivery(m, { data: undefined, marker: m })), expect: BAD_DATA },
	{ id: 'data-array', title: 'Data given as an array', trigger: 'plain', request: (m) => post(delivery(m, { data: [{ marker: m }] })), expect: BAD_DATA },
	{ id: 'body-2mb', title: 'A 2 MiB delivery (only n8n’s own 16 MiB limit applies)', trigger: 'plain', request: (m) => post(delivery(m, { data: { marker: m, note: 'x'.repeat(2 * 1024 * 1024) } })), expect: ACCEPTED },
	{ id: 'content-type-text', title: 'A valid delivery sent as text/plain', trigger: 'plain', request: (m) => post(delivery(m), { 'content-type': 'text/plain' }), expect: ACCEPTED },
	{ id: 'content-type-form', title: 'A form post (application/x-www-form-urlencoded)', trigger: 'plain', request: (m) => post(`event=contact.created&marker=${m}`, { 'content-type': 'application/x-www-form-urlencoded' }), expect: NOT_AN_OBJECT },
	{ id: 'get-not-post', title: 'GET instead of POST', trigger: 'plain', request: () => ({ method: 'GET', headers: {} }), expect: { status: 404, field: /GET/, fix: /POST/ }, answeredBy: 'n8n' },
	{ id: 'signature-wrong-secret', title: 'HMAC signature made with another secret', trigger: 'hmac', request: (m) => { const body = delivery(m); return post(body, { ...JSON_TYPE, 'x-erp-signature': hmacHex('not-the-secret', body) }); }, expect: { status: 401, field: /X-Erp-Signature/, fix: SAME_SECRET } },
	{ id: 'signature-other-body', title: 'Valid signature of another body (tampered delivery)', trigger: 'hmac', request: (m, secret) => post(delivery(m), { ...JSON_TYPE, 'x-erp-signature': hmacHex(secret, delivery('original')) }), expect: { status: 401, field: /X-Erp-Signature/, fix: SAME_SECRET } },
	{ id: 'signature-malformed', title: 'Signature header "sha256=zzz"', trigger: 'hmac', request: (m) => post(delivery(m), { ...JSON_TYPE, 'x-erp-signature': 'sha256=zzz' }), expect: { status: 401, field: /X-Erp-Signature/, fix: SAME_SECRET } },
	{ id: 'signature-missing', title: 'No signature header', trigger: 'hmac', request: (m) => post(delivery(m)), expect: { status: 401, field: /X-Erp-Signature/, fix: /HMAC-SHA256 of the body/ } },
	{ id: 'shared-secret-wrong', title: 'Wrong shared secret', trigger: 'shared', request: (m) => post(delivery(m), { ...JSON_TYPE, [SECRET_HEADER.toLowerCase()]: 'not-the-secret' }), expect: { status: 401, field: new RegExp(SECRET_HEADER), fix: SAME_SECRET } },
	{ id: 'shared-secret-missing', title: 'No shared-secret header', trigger: 'shared', request: (m) => post(delivery(m)), expect: { status: 401, field: new RegExp(SECRET_HEADER), fix: /send the secret/ } },
];
