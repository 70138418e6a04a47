import { ERP_EVENTS, isIsoTimestamp, MAX_BODY_BYTES, validateDelivery } from '../../../nodes/ErpTrigger/validateDelivery';
import { deliveryBody } from './fakeWebhookContext';

const json = 'application/json';
const BAD_TIMESTAMP = 'Field "timestamp" must be an ISO 8601 date-time such as 2026-01-31T09:30:00Z';
/** Validates `body` sent with `contentType` (null: no Content-Type header). */
const validate = (body: string | Buffer | undefined, contentType: string | null = json) =>
	validateDelivery(contentType ?? undefined, typeof body === 'string' ? Buffer.from(body) : body);

describe('validateDelivery', () => {
	it('returns the delivery of a well-formed body', () => {
		expect(validate(deliveryBody())).toEqual({
			delivery: {
				event: 'invoice.paid',
				timestamp: '2026-11-22T10:15:30.000Z',
				data: { invoice_id: 7, amount: 119.5, currency: 'EUR' },
			},
		});
	});

	it('ignores unknown top-level fields', () => {
		expect(validate(deliveryBody({ id: 'x', attempt: 2 }))).toHaveProperty('delivery.event', 'invoice.paid');
	});

	it.each([
		['application/json; charset=utf-8'],
		['Application/JSON'],
		[' application/json ;charset=UTF-8'],
	])('accepts the content type %j', (contentType) => {
		expect(validate(deliveryBody(), contentType)).toHaveProperty('delivery');
	});

	it.each([
		['no content type', null],
		['text/plain', 'text/plain'],
		['form data', 'application/x-www-form-urlencoded'],
		['a JSON-like vendor type', 'application/vnd.erp+json'],
	])('rejects %s', (_case, contentType) => {
		expect(validate(deliveryBody(), contentType)).toEqual({ reason: 'Content-Type must be application/json' });
	});

	it('rejects a missing or empty body', () => {
		expect(validate(undefined)).toEqual({ reason: 'Body is empty: send a JSON object with event, timestamp and data' });
		expect(validate('')).toEqual({ reason: 'Body is empty: send a JSON object with event, timestamp and data' });
	});

	it('accepts a body of exactly 1 MiB and rejects one byte more', () => {
		const body = deliveryBody({ data: { note: '' } });
		const padding = MAX_BODY_BYTES - Buffer.byteLength(body);
		const exact = deliveryBody({ data: { note: 'x'.repeat(padding) } });

		expect(Buffer.byteLength(exact)).toBe(MAX_BODY_BYTES);
		expect(validate(exact)).toHaveProperty('delivery');
		expect(validate(deliveryBody({ data: { note: 'x'.repeat(padding + 1) } }))).toEqual({
			reason: 'Body is larger than 1048576 bytes: send at most 1 MiB',
		});
	});

	it.each([
		['malformed JSON', '{"event": "invoice.paid",', 'Body is not valid JSON: send a JSON object with event, timestamp and data'],
		['a JSON array', `[${deliveryBody()}]`, 'Body must be a JSON object with event, timestamp and data'],
		['JSON null', 'null', 'Body must be a JSON object with event, timestamp and data'],
		['a JSON string', '"invoice.paid"', 'Body must be a JSON object with event, timestamp and data'],
		['a missing event', deliveryBody({ event: undefined }), 'Field "event" is missing: use one of contact.created, contact.updated, invoice.paid, invoice.overdue, product.low_stock, employee.hired'],
		['an unknown event', deliveryBody({ event: 'invoice.created' }), 'Unknown event "invoice.created" in field "event": use one of contact.created, contact.updated, invoice.paid, invoice.overdue, product.low_stock, employee.hired'],
		['a non-string event', deliveryBody({ event: 42 }), 'Unknown event 42 in field "event": use one of contact.created, contact.updated, invoice.paid, invoice.overdue, product.low_stock, employee.hired'],
		['an event in the wrong case', deliveryBody({ event: 'Invoice.Paid' }), 'Unknown event "Invoice.Paid" in field "event": use one of contact.created, contact.updated, invoice.paid, invoice.overdue, product.low_stock, employee.hired'],
		['a missing timestamp', deliveryBody({ timestamp: undefined }), BAD_TIMESTAMP],
		['a date-only timestamp', deliveryBody({ timestamp: '2026-11-22' }), BAD_TIMESTAMP],
		['an epoch timestamp', deliveryBody({ timestamp: 1795342530 }), BAD_TIMESTAMP],
		['a missing data', deliveryBody({ data: undefined }), 'Field "data" must be an object'],
		['a null data', deliveryBody({ data: null }), 'Field "data" must be an object'],
		['an array data', deliveryBody({ data: [1, 2] }), 'Field "data" must be an object'],
		['a string data', deliveryBody({ data: 'paid' }), 'Field "data" must be an object'],
	])('rejects %s', (_case, body, reason) => {
		expect(validate(body)).toEqual({ reason });
	});

	it.each(ERP_EVENTS)('accepts the event %s', (event) => {
		expect(validate(deliveryBody({ event }))).toHaveProperty('delivery.event', event);
	});
});

describe('isIsoTimestamp', () => {
	it.each([
		'2026-11-22T10:15:30.000Z',
		'2026-11-22T10:15:30Z',
		'2026-11-22T10:15:30.123456Z',
		'2026-11-22T10:15:30+02:00',
		'2026-11-22T10:15:30-05:30',
		'2024-02-29T00:00:00Z',
	])('accepts %s', (value) => {
		expect(isIsoTimestamp(value)).toBe(true);
	});

	it.each([
		'2026-11-22',
		'2026-11-22T10:15:30',
		'2026-11-22 10:15:30Z',
		'2026-11-22T10:15Z',
		'2026-02-30T00:00:00Z',
		'2025-02-29T00:00:00Z',
		'2026-13-01T00:00:00Z',
		'2026-11-22T24:00:00Z',
		'2026-11-22T10:60:00Z',
		'2026-11-22T10:15:60Z',
		'2026-11-22T10:15:30+24:00',
		'Sun, 22 Nov 2026 10:15:30 GMT',
		'',
	])('rejects %j', (value) => {
		expect(isIsoTimestamp(value)).toBe(false);
	});
});
