import { parseDelivery as validateDelivery } from '../../../nodes/ErpTrigger/parseDelivery';
import { deliveryBody } from './harness';

const validate = (body: string | Buffer | undefined) =>
	validateDelivery(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);

const NOT_AN_OBJECT = 'Body is not a JSON object: send a JSON object with event, timestamp and data';
const NO_EVENT = 'Field "event" is missing: name the event, e.g. "invoice.paid"';
const BAD_EVENT = 'Field "event" must be the event\'s name, a non-empty string such as "invoice.paid"';
const BAD_DATA = 'Field "data" must be a JSON object with the event\'s content, e.g. {"invoice_id": 7}';

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
		expect(validate(deliveryBody({ id: 'x', attempt: 2 }))).toEqual({
			delivery: {
				event: 'invoice.paid',
				timestamp: '2026-11-22T10:15:30.000Z',
				data: { invoice_id: 7, amount: 119.5, currency: 'EUR' },
			},
		});
	});

	it.each(['invoice.refunded', 'Invoice.Paid', 'contact.created.v2', 'x'])(
		'accepts the event name %j, though the API document does not list it',
		(event) => {
			expect(validate(deliveryBody({ event }))).toHaveProperty('delivery.event', event);
		},
	);

	it.each([
		'2026-11-23T10:00:00Z',
		'2026-11-23T10:00:00+00:00',
		'2026-11-23T10:00:00+0000',
		'2026-11-23T10:00:00+00',
		'2026-11-23T10:00:00.5Z',
		'2026-11-23T10:00:00.123456789+05:30',
		'2026-11-23T10:00:00,250-0330',
		'20261123T100000Z',
		'2026-11-23T10:00Z',
	])('passes the ISO 8601 timestamp %j on as sent', (timestamp) => {
		expect(validate(deliveryBody({ timestamp }))).toHaveProperty('delivery.timestamp', timestamp);
	});

	it.each([
		['text', 'yesterday'],
		['an RFC 1123 date', 'Mon, 23 Nov 2026 10:00:00 GMT'],
		['a date without a time', '2026-11-23'],
		['an impossible date', '2026-02-30T00:00:00Z'],
		['epoch seconds', 1795342530],
		['null', null],
		['an empty string', ''],
	])('passes a timestamp that is %s on exactly as sent', (_case, timestamp) => {
		expect(validate(deliveryBody({ timestamp }))).toHaveProperty('delivery.timestamp', timestamp);
	});

	it('leaves the timestamp out when the delivery has none', () => {
		const validation = validate(deliveryBody({ timestamp: undefined }));

		expect(validation).toEqual({ delivery: { event: 'invoice.paid', data: { invoice_id: 7, amount: 119.5, currency: 'EUR' } } });
		expect(Object.keys((validation as { delivery: object }).delivery)).toEqual(['event', 'data']);
	});

	it('reads the bytes as UTF-8 and ignores a leading byte-order mark', () => {
		const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(deliveryBody({ data: { name: 'Zoë Müller' } }))]);

		expect(validate(body)).toHaveProperty('delivery.data', { name: 'Zoë Müller' });
	});

	it('has no size limit of its own: a 5 MiB delivery is a delivery', () => {
		const note = 'x'.repeat(5 * 1024 * 1024);

		expect(validate(deliveryBody({ data: { note } }))).toHaveProperty('delivery.data.note', note);
	});

	it.each([
		['no body (as for multipart form data, which n8n does not hand over raw)', undefined, NOT_AN_OBJECT],
		['an empty body', '', 'Body is empty: send a JSON object with event, timestamp and data'],
		['malformed JSON', '{"event": "invoice.paid",', NOT_AN_OBJECT],
		['a form post', 'event=invoice.paid&invoice_id=7', NOT_AN_OBJECT],
		['a JSON array', `[${deliveryBody()}]`, NOT_AN_OBJECT],
		['JSON null', 'null', NOT_AN_OBJECT],
		['a JSON string', '"invoice.paid"', NOT_AN_OBJECT],
		['a missing event', deliveryBody({ event: undefined }), NO_EVENT],
		['an empty event', deliveryBody({ event: '' }), BAD_EVENT],
		['a blank event', deliveryBody({ event: '  ' }), BAD_EVENT],
		['a number event', deliveryBody({ event: 42 }), BAD_EVENT],
		['a null event', deliveryBody({ event: null }), BAD_EVENT],
		['an object event', deliveryBody({ event: { name: 'invoice.paid' } }), BAD_EVENT],
		['a missing data', deliveryBody({ data: undefined }), BAD_DATA],
		['a null data', deliveryBody({ data: null }), BAD_DATA],
		['an array data', deliveryBody({ data: [1, 2] }), BAD_DATA],
		['a string data', deliveryBody({ data: 'paid' }), BAD_DATA],
	])('refuses %s', (_case, body, reason) => {
		expect(validate(body)).toEqual({ reason });
	});
});
