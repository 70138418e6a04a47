import { createHash, createHmac } from 'node:crypto';

import { isLowStock } from '../../../nodes/shared/lowStock';
import { claimOf, recordIdOf } from '../../../nodes/ErpTrigger/claimedRecord';
import { isOverdue, judge, judgeStock, paidState } from '../../../nodes/ErpTrigger/confirmRules';
import { canonicalJson } from '../../../nodes/shared/canonicalJson';
import { contentDigest, deliveryKey, DELIVERY_ID_HEADERS } from '../../../nodes/ErpTrigger/deliveryKey';
import { type ErpDelivery, parseDelivery } from '../../../nodes/ErpTrigger/parseDelivery';
import { readSchedule } from '../../../nodes/ErpTrigger/readBack';
import { parseSignature, safeEqual, verifyDelivery, verifyHmacSignature } from '../../../nodes/ErpTrigger/verifyDelivery';
import { deliveryBody } from './harness';

// The steps of a delivery as pure functions: verify, parse, key, and the rules the confirmation decides by.

// RFC-style test vector: HMAC-SHA256, key "key", message "The quick brown fox jumps over the lazy dog".
const BODY = Buffer.from('The quick brown fox jumps over the lazy dog');
const HEX = 'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8';
const BASE64 = '97yD9DBThCSxMpjmqm+xQ+9NWaFJRhdZl0edvC0aPNg=';
const SAME_SECRET = 'check that the ERP and the Webhook Signing Secret of the ERP API credential are the same';

describe('verify', () => {
	it('compares secrets in constant time: true only for identical strings, of any lengths, without throwing', () => {
		expect([safeEqual('s3cret', 's3cret'), safeEqual('s3cret', 's3creT'), safeEqual('s3cret', 's3cret '), safeEqual('', 'long'), safeEqual('a'.repeat(1000), 'a')]).toEqual([true, false, false, false, false]);
	});

	it('reads a signature in hex (sha256= prefix optional, any case) or base64 (padded or not)', () => {
		const bytes = Buffer.from(HEX, 'hex');
		for (const [value, encoding] of [[HEX, 'hex'], [`SHA256=${HEX.toUpperCase()}`, 'hex'], [`  sha256=${HEX} `, 'hex'], [BASE64, 'base64'], [`sha256=${BASE64}`, 'base64'], [BASE64.replace(/=$/, ''), 'base64']] as const) {
			expect(parseSignature(value, encoding)).toEqual(bytes);
		}
	});

	it.each([
		['empty', '', 'hex'],
		['only the prefix', 'sha256=', 'hex'],
		['too short hex', HEX.slice(2), 'hex'],
		['too long hex', `${HEX}00`, 'hex'],
		['non-hex characters', `${HEX.slice(1)}g`, 'hex'],
		['base64 where hex is expected', BASE64, 'hex'],
		['hex where base64 is expected', HEX, 'base64'],
		['too short base64', BASE64.slice(4), 'base64'],
		['base64url characters', BASE64.replace('+', '-'), 'base64'],
		['another algorithm prefix', `sha1=${HEX}`, 'hex'],
	] as const)('refuses a signature that is %s', (_case, value, encoding) => {
		expect(parseSignature(value, encoding)).toBeUndefined();
	});

	// Another secret or body: the refusals of verifyDelivery below.
	it('accepts the HMAC-SHA256 of the bytes; refuses another signature, and the same JSON re-serialised', () => {
		expect([verifyHmacSignature(BODY, 'key', `sha256=${HEX}`, 'hex'), verifyHmacSignature(BODY, 'key', BASE64, 'base64')]).toEqual([true, true]);
		expect(verifyHmacSignature(BODY, 'key', `${HEX.slice(0, -1)}9`, 'hex')).toBe(false);
		const raw = Buffer.from('{"event": "invoice.paid"}');
		const signature = createHmac('sha256', 'key').update(raw).digest('hex');
		expect(verifyHmacSignature(Buffer.from(JSON.stringify(JSON.parse(raw.toString()))), 'key', signature, 'hex')).toBe(false);
	});

	const hmac = { method: 'hmacSha256', headerName: 'X-Erp-Signature', encoding: 'hex' } as const;
	const signed = (body: string, secret = 'key') => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
	it.each([
		['no signature header', {}, 'Missing X-Erp-Signature header: send the HMAC-SHA256 of the body, keyed with the secret'],
		['an empty one', { 'x-erp-signature': '' }, 'Missing X-Erp-Signature header: send the HMAC-SHA256 of the body, keyed with the secret'],
		['the signature in another header', { 'x-signature': signed(deliveryBody()) }, 'Missing X-Erp-Signature header: send the HMAC-SHA256 of the body, keyed with the secret'],
		['a signature made with another secret', { 'x-erp-signature': signed(deliveryBody(), 'wrong') }, `X-Erp-Signature is not a valid signature of the body: ${SAME_SECRET}`],
		['a signature of another body', { 'x-erp-signature': signed(deliveryBody({ event: 'contact.created' })) }, `X-Erp-Signature is not a valid signature of the body: ${SAME_SECRET}`],
		['a base64 signature where hex is set', { 'x-erp-signature': createHmac('sha256', 'key').update(deliveryBody()).digest('base64') }, `X-Erp-Signature is not a valid signature of the body: ${SAME_SECRET}`],
	])('refuses a delivery with %s, saying why', (_case, headers, reason) => {
		expect(verifyDelivery(hmac, 'key', headers, Buffer.from(deliveryBody()))).toBe(reason);
		expect(verifyDelivery(hmac, 'key', { 'x-erp-signature': signed(deliveryBody()) }, Buffer.from(deliveryBody()))).toBeUndefined();
	});

	it('checks a shared secret in the header named', () => {
		const shared = { method: 'sharedSecret', headerName: 'X-Hook-Secret' } as const;
		expect(verifyDelivery(shared, 'key', { 'x-hook-secret': 'key' }, undefined)).toBeUndefined();
		expect(verifyDelivery(shared, 'key', { 'x-hook-secret': 'keyx' }, undefined)).toBe(`X-Hook-Secret does not match the shared secret: ${SAME_SECRET}`);
		expect(verifyDelivery(shared, 'key', { 'x-erp-webhook-secret': 'key' }, undefined)).toBe('Missing X-Hook-Secret header: send the secret in it');
	});
});

describe('parse', () => {
	const parse = (body: string | Buffer | undefined) => parseDelivery(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
	const DELIVERY = { event: 'invoice.paid', timestamp: '2026-11-22T10:15:30.000Z', data: { invoice_id: 7, amount: 119.5, currency: 'EUR' } };
	const NOT_AN_OBJECT = 'Body is not a JSON object: send a JSON object with event, timestamp and data';
	const BAD_EVENT = 'Field "event" must be the event\'s name, a non-empty string such as "invoice.paid"';
	const BAD_DATA = 'Field "data" must be a JSON object with the event\'s content, e.g. {"invoice_id": 7}';

	it('reads {event, timestamp, data}, ignoring other top-level fields, a byte-order mark, and size (5 MiB)', () => {
		expect(parse(deliveryBody({ id: 'x', attempt: 2 }))).toEqual({ delivery: DELIVERY });
		const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(deliveryBody({ data: { name: 'Zoë Müller' } }))]);
		expect(parse(bom)).toHaveProperty('delivery.data', { name: 'Zoë Müller' });
		const note = 'x'.repeat(5 * 1024 * 1024);
		expect(parse(deliveryBody({ data: { note } }))).toHaveProperty('delivery.data.note', note);
	});

	it.each(['invoice.refunded', 'Invoice.Paid', 'x'])('takes the event name %j, though the API document does not list it', (event) => {
		expect(parse(deliveryBody({ event }))).toHaveProperty('delivery.event', event);
	});

	it.each(['2026-11-23T10:00:00+0000', '2026-11-23T10:00:00.123456789+05:30', '20261123T100000Z', 'yesterday', 'Mon, 23 Nov 2026 10:00:00 GMT', '2026-02-30T00:00:00Z', 1795342530, null, ''])(
		'passes the timestamp %j on exactly as sent: never a reason to refuse',
		(timestamp) => {
			expect(parse(deliveryBody({ timestamp }))).toHaveProperty('delivery.timestamp', timestamp);
		},
	);

	it('leaves the timestamp out when the delivery has none', () => {
		const parsed = parse(deliveryBody({ timestamp: undefined }));
		expect(Object.keys((parsed as { delivery: object }).delivery)).toEqual(['event', 'data']);
	});

	it.each([
		['no body (as for multipart form data, which n8n does not hand over raw)', undefined, NOT_AN_OBJECT],
		['an empty body', '', 'Body is empty: send a JSON object with event, timestamp and data'],
		['malformed JSON', '{"event": "invoice.paid",', NOT_AN_OBJECT],
		['a form post', 'event=invoice.paid&invoice_id=7', NOT_AN_OBJECT],
		['a JSON array', `[${deliveryBody()}]`, NOT_AN_OBJECT],
		['JSON null', 'null', NOT_AN_OBJECT],
		['a missing event', deliveryBody({ event: undefined }), 'Field "event" is missing: name the event, e.g. "invoice.paid"'],
		['an empty event', deliveryBody({ event: '' }), BAD_EVENT],
		['a blank event', deliveryBody({ event: '  ' }), BAD_EVENT],
		['a number event', deliveryBody({ event: 42 }), BAD_EVENT],
		['an object event', deliveryBody({ event: { name: 'invoice.paid' } }), BAD_EVENT],
		['a missing data', deliveryBody({ data: undefined }), BAD_DATA],
		['a null data', deliveryBody({ data: null }), BAD_DATA],
		['an array data', deliveryBody({ data: [1, 2] }), BAD_DATA],
		['a string data', deliveryBody({ data: 'paid' }), BAD_DATA],
	])('refuses %s', (_case, body, reason) => {
		expect(parse(body)).toEqual({ reason });
	});
});

describe('key', () => {
	const DELIVERY: ErpDelivery = { event: 'invoice.paid', timestamp: '2026-11-22T10:15:30.000Z', data: { invoice_id: 7, amount: 119.5, currency: 'EUR', lines: [{ sku: 'A', qty: 1 }] } };

	it('is the value of the first delivery id header present, in this order, not X-Request-Id (often new on each attempt)', () => {
		expect(DELIVERY_ID_HEADERS).toEqual(['X-Erp-Delivery', 'X-Delivery-Id', 'X-Event-Id', 'X-Webhook-Id', 'Webhook-Id', 'Idempotency-Key']);
		for (const name of DELIVERY_ID_HEADERS) expect(deliveryKey(DELIVERY, { [name.toLowerCase()]: 'evt_123' })).toBe('evt_123');
		expect(deliveryKey(DELIVERY, { 'idempotency-key': 'idem', 'webhook-id': 'std' })).toBe('std');
		expect(deliveryKey(DELIVERY, { 'x-request-id': 'attempt-1' })).toBe(contentDigest(DELIVERY));
	});

	it('prefers the header the user named, matching names in any case; trims; takes the first of a repeated header', () => {
		expect(deliveryKey(DELIVERY, { 'x-hook-id': 'user', 'x-erp-delivery': 'erp' }, 'X-Hook-Id')).toBe('user');
		expect(deliveryKey(DELIVERY, { 'X-Hook-Id': 'h-3' }, 'x-hook-id')).toBe('h-3');
		expect(deliveryKey(DELIVERY, { 'X-ERP-DELIVERY': 'd-1' })).toBe('d-1');
		expect(deliveryKey(DELIVERY, { 'x-event-id': 'evt' }, 'X-Hook-Id')).toBe('evt');
		expect(deliveryKey(DELIVERY, { 'x-delivery-id': '  d-9 ' })).toBe('d-9');
		expect(deliveryKey(DELIVERY, { 'x-delivery-id': ['first', 'second'] })).toBe('first');
	});

	it('without a non-empty id header: the hex SHA-256 of the canonical JSON of event, timestamp and data', () => {
		const canonical = '{"data":{"amount":119.5,"currency":"EUR","invoice_id":7,"lines":[{"qty":1,"sku":"A"}]},"event":"invoice.paid","timestamp":"2026-11-22T10:15:30.000Z"}';
		expect(canonicalJson(DELIVERY)).toBe(canonical);
		expect(deliveryKey(DELIVERY, { 'x-hook-id': '  ' }, 'X-Hook-Id')).toBe(createHash('sha256').update(canonical).digest('hex'));
		expect(deliveryKey(DELIVERY, { 'x-erp-delivery': '' }, '  ')).toBe(contentDigest(DELIVERY));
	});

	it('is the same digest in any key order, spacing or number form; another for any other content', () => {
		const reordered = JSON.parse('{ "data": {"lines": [{"qty": 1.0, "sku": "A"}], "currency": "EUR", "amount": 119.50, "invoice_id": 7},\n "timestamp": "2026-11-22T10:15:30.000Z", "event": "invoice.paid" }') as ErpDelivery;
		expect(deliveryKey(reordered, {})).toBe(deliveryKey(DELIVERY, {}));
		const keys = [
			DELIVERY,
			{ ...DELIVERY, event: 'invoice.overdue' },
			{ ...DELIVERY, timestamp: '2026-11-22T10:15:31.000Z' },
			{ ...DELIVERY, timestamp: null },
			{ event: DELIVERY.event, data: DELIVERY.data },
			{ ...DELIVERY, data: { ...DELIVERY.data, amount: '119.5' } },
			{ ...DELIVERY, data: { ...DELIVERY.data, note: null } },
			{ ...DELIVERY, data: { ...DELIVERY.data, lines: [{ sku: 'A', qty: 1 }, { sku: 'B', qty: 1 }] } },
			{ ...DELIVERY, data: { ...DELIVERY.data, lines: [{ sku: 'B', qty: 1 }, { sku: 'A', qty: 1 }] } },
			{ ...DELIVERY, data: { 'a,b': 1 } },
			{ ...DELIVERY, data: { a: ',b:1' } },
		].map((delivery) => deliveryKey(delivery as ErpDelivery, {}));
		expect(new Set(keys).size).toBe(keys.length);
	});
});

describe('confirm: the rules', () => {
	const NOW = new Date('2026-11-28T10:00:00.000Z');
	const invoice = claimOf('invoice.paid');
	if (invoice === undefined) throw new Error('invoice.paid is one of the six events');

	it('knows the six events of the document and the path of each one’s record, and no other name', () => {
		expect(['contact.created', 'contact.updated', 'employee.hired', 'invoice.paid', 'invoice.overdue', 'product.low_stock'].map((event) => claimOf(event)?.path)).toEqual(['/contacts', '/contacts', '/employees', '/invoices', '/invoices', '/products']);
		expect([claimOf('invoice.created'), claimOf('toString'), claimOf('__proto__')]).toEqual([undefined, undefined, undefined]);
	});

	it.each([
		[{ invoice_id: 7 }, { id: '7', field: 'invoice_id' }],
		[{ id: 7 }, { id: '7', field: 'id' }],
		[{ invoice_id: ' 12 ' }, { id: '12', field: 'invoice_id' }],
		[{ invoice_id: 7, id: 99 }, { id: '7', field: 'invoice_id' }],
		[{ invoice_id: 'INV-7', id: 99 }, { id: '99', field: 'id' }],
		[{ invoice_id: 0 }, { id: '0', field: 'invoice_id' }],
	])('takes the record ID of %j as %j', (data, found) => {
		expect(recordIdOf(invoice, data)).toEqual(found);
	});

	it('takes no ID that is not an integer, and says which fields it looked at', () => {
		for (const data of [{}, { contact_id: 3 }, { invoice_id: null }]) {
			expect(recordIdOf(invoice, data)).toEqual({ reason: 'The delivery names no invoice: its data has no invoice_id or id, so the ERP cannot be asked about it' });
		}
		for (const value of ['7a', 7.5, -1, true, [7], '1e3', '9'.repeat(16)]) {
			expect(recordIdOf(invoice, { invoice_id: value })).toEqual({ reason: expect.stringMatching(/^The delivery's data\.invoice_id is .+, not an integer invoice ID/) });
		}
	});

	it.each([
		[{ status: 'PAID' }, true],
		[{ status: 'Fully Paid' }, true],
		[{ status: 'settled' }, true],
		[{ status: 'sent', paid_at: '2026-11-01' }, false],
		[{ status: 'overdue' }, false],
		[{ status: 'partially-paid' }, false],
		[{ status: 'closed', paid_at: '2026-11-01T10:00:00Z' }, true],
		[{ paid_on: '2026-11-01' }, true],
		[{ status: 'booked', amount_due: 0 }, true],
		[{ balance_due: '0.00' }, true],
		[{ amount_due: 12.5 }, false],
		[{ status: 'booked', paid_at: null, amount_due: null }, undefined],
	])('an invoice %j is paid: %s', (record, paid) => {
		expect(paidState(record).paid).toBe(paid);
	});

	it.each([
		[{ status: 'overdue', due_date: '2026-12-31' }, true],
		[{ status: 'Past Due' }, true],
		[{ status: 'open', due_date: '2026-11-01' }, true],
		[{ status: 'sent', due_date: '2026-11-28' }, true],
		[{ status: 'sent', due_date: '2026-11-29' }, false],
		[{ due_at: '2026-11-20T00:00:00+02:00' }, true],
		[{ due_on: '2026-12-20' }, false],
		[{ status: 'sent' }, undefined],
		[{ status: 'sent', due_date: 'soon' }, undefined],
	])('an invoice %j is overdue: %s', (record, overdue) => {
		expect(isOverdue(record, NOW)).toBe(overdue);
	});

	it('invoice.paid: confirmed when paid, contradicted when not, unconfirmable when nothing on it tells', () => {
		expect(judge('invoice.paid', { status: 'paid' }, '7', NOW)).toEqual({ status: 'confirmed' });
		expect(judge('invoice.paid', { amount_due: 3 }, '7', NOW)).toEqual({ status: 'contradicted', reason: 'The ERP shows invoice 7 as not paid (amount_due 3)' });
		expect(judge('invoice.paid', { status: 'booked' }, '7', NOW)).toEqual({ status: 'unconfirmable', reason: 'Invoice 7 in the ERP shows no payment state the node can read (status "booked", no paid_at or amount_due)' });
	});

	it('invoice.overdue: judged by the due date where the status words are others; contacts and employees by existing', () => {
		expect(judge('invoice.overdue', { status: 'open', due_date: '2026-11-01' }, '7', NOW)).toEqual({ status: 'confirmed' });
		expect(judge('invoice.overdue', { status: 'open', due_date: '2026-12-01' }, '7', NOW)).toEqual({ status: 'contradicted', reason: 'The ERP shows invoice 7 as not overdue (status "open", due_date 2026-12-01)' });
		expect(judge('invoice.overdue', { status: 'settled', due_date: '2026-11-01' }, '7', NOW)).toEqual({ status: 'contradicted', reason: 'The ERP shows invoice 7 as paid (status "settled"), so it is not overdue' });
		expect(judge('invoice.overdue', { status: 'sent' }, '7', NOW)).toEqual({ status: 'unconfirmable', reason: 'Invoice 7 in the ERP shows neither an overdue status nor a due date (status "sent", no due_date, due_on, due_at)' });
		expect([judge('contact.created', { id: 1 }, '1', NOW), judge('employee.hired', {}, '1', NOW)]).toEqual([{ status: 'confirmed' }, { status: 'confirmed' }]);
	});

	it('product.low_stock: below the threshold by the polling trigger’s rule, not at it', () => {
		expect([isLowStock({ total: 9, threshold: 10 }), isLowStock({ total: 10, threshold: 10 })]).toEqual([true, false]);
		expect(judgeStock('3', { total: 9, threshold: 10 })).toEqual({ status: 'confirmed' });
		expect(judgeStock('3', { total: 10, threshold: 10 })).toEqual({ status: 'contradicted', reason: 'The ERP shows product 3 with a stock of 10, not below its threshold of 10' });
	});

	it.each([
		[0, []],
		[400, []],
		[500, [500]],
		[1_500, [500, 1_000]],
		[3_000, [500, 1_000]],
		[8_000, [500, 1_000, 2_000, 4_000]],
		[30_000, [500, 1_000, 2_000, 4_000, 8_000]],
	])('reads a contradicted record again within Confirmation Wait %i ms after waits of %j', (waitMs, waits) => {
		expect(readSchedule(waitMs)).toEqual(waits);
	});
});
