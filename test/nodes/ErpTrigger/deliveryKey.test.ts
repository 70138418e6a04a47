import { createHash } from 'node:crypto';

import { canonicalJson, contentDigest, deliveryKey, DELIVERY_ID_HEADERS } from '../../../nodes/ErpTrigger/deliveryKey';
import type { ErpDelivery } from '../../../nodes/ErpTrigger/parseDelivery';

const DELIVERY: ErpDelivery = {
	event: 'invoice.paid',
	timestamp: '2026-11-22T10:15:30.000Z',
	data: { invoice_id: 7, amount: 119.5, currency: 'EUR', lines: [{ sku: 'A', qty: 1 }] },
};
const HEX_SHA256 = /^[0-9a-f]{64}$/;

describe('deliveryKey: a delivery id header', () => {
	it.each(DELIVERY_ID_HEADERS.map((name) => [name]))('takes the value of %s', (name) => {
		expect(deliveryKey(DELIVERY, { [name.toLowerCase()]: 'evt_123' })).toBe('evt_123');
	});

	it('looks for these, and not X-Request-Id (often new on each attempt)', () => {
		expect(DELIVERY_ID_HEADERS).toEqual(['X-Erp-Delivery', 'X-Delivery-Id', 'X-Event-Id', 'X-Webhook-Id', 'Webhook-Id', 'Idempotency-Key']);
		expect(deliveryKey(DELIVERY, { 'x-request-id': 'attempt-1' })).toBe(contentDigest(DELIVERY));
	});

	it('matches header names in any letter case', () => {
		expect(deliveryKey(DELIVERY, { 'X-ERP-DELIVERY': 'd-1' })).toBe('d-1');
		expect(deliveryKey(DELIVERY, { 'webhook-id': 'msg_2' })).toBe('msg_2');
		expect(deliveryKey(DELIVERY, { 'x-hook-id': 'h-3' }, 'X-Hook-ID')).toBe('h-3');
		expect(deliveryKey(DELIVERY, { 'X-Hook-Id': 'h-3' }, 'x-hook-id')).toBe('h-3');
	});

	it('prefers the header the user named, then the list in its order', () => {
		const headers = { 'x-hook-id': 'user', 'idempotency-key': 'idem', 'webhook-id': 'std', 'x-erp-delivery': 'erp' };

		expect(deliveryKey(DELIVERY, headers, 'X-Hook-Id')).toBe('user');
		expect(deliveryKey(DELIVERY, headers)).toBe('erp');
		expect(deliveryKey(DELIVERY, { 'idempotency-key': 'idem', 'webhook-id': 'std' })).toBe('std');
	});

	it('falls back to the list, then to the digest, when the named header is missing or empty', () => {
		expect(deliveryKey(DELIVERY, { 'x-event-id': 'evt' }, 'X-Hook-Id')).toBe('evt');
		expect(deliveryKey(DELIVERY, { 'x-hook-id': '  ' }, 'X-Hook-Id')).toBe(contentDigest(DELIVERY));
		expect(deliveryKey(DELIVERY, { 'x-erp-delivery': '' }, '  ')).toBe(contentDigest(DELIVERY));
	});

	it('trims the value and takes the first of a repeated header', () => {
		expect(deliveryKey(DELIVERY, { 'x-delivery-id': '  d-9 ' })).toBe('d-9');
		expect(deliveryKey(DELIVERY, { 'x-delivery-id': ['first', 'second'] })).toBe('first');
	});
});

describe('deliveryKey without an id header: the digest of event, timestamp and data', () => {
	it('is the hex SHA-256 of the canonical JSON', () => {
		const canonical =
			'{"data":{"amount":119.5,"currency":"EUR","invoice_id":7,"lines":[{"qty":1,"sku":"A"}]},"event":"invoice.paid","timestamp":"2026-11-22T10:15:30.000Z"}';

		expect(canonicalJson(DELIVERY)).toBe(canonical);
		expect(deliveryKey(DELIVERY, {})).toBe(createHash('sha256').update(canonical).digest('hex'));
		expect(deliveryKey(DELIVERY, {})).toMatch(HEX_SHA256);
	});

	it('is the same for the same content in any key order, spacing or number form', () => {
		const reordered = JSON.parse(
			'{ "data": {"lines": [{"qty": 1.0, "sku": "A"}], "currency": "EUR", "amount": 119.50, "invoice_id": 7},\n "timestamp": "2026-11-22T10:15:30.000Z", "event": "invoice.paid" }',
		) as ErpDelivery;

		expect(deliveryKey(reordered, {})).toBe(deliveryKey(DELIVERY, {}));
	});

	it('differs when the event, the timestamp or anything in data differs, the order of a list included', () => {
		const keys = [
			DELIVERY,
			{ ...DELIVERY, event: 'invoice.overdue' },
			{ ...DELIVERY, timestamp: '2026-11-22T10:15:31.000Z' },
			{ ...DELIVERY, data: { ...DELIVERY.data, amount: 119.51 } },
			{ ...DELIVERY, data: { ...DELIVERY.data, amount: '119.5' } },
			{ ...DELIVERY, data: { ...DELIVERY.data, note: null } },
			{ ...DELIVERY, data: { ...DELIVERY.data, lines: [{ sku: 'A', qty: 1 }, { sku: 'B', qty: 1 }] } },
			{ ...DELIVERY, data: { ...DELIVERY.data, lines: [{ sku: 'B', qty: 1 }, { sku: 'A', qty: 1 }] } },
		].map((delivery) => deliveryKey(delivery as ErpDelivery, {}));

		expect(new Set(keys).size).toBe(keys.length);
	});

	it('covers a delivery without a timestamp, distinct from one whose timestamp is null', () => {
		const untimed: ErpDelivery = { event: DELIVERY.event, data: DELIVERY.data };

		expect(deliveryKey(untimed, {})).toMatch(HEX_SHA256);
		expect(deliveryKey(untimed, {})).not.toBe(deliveryKey({ ...untimed, timestamp: null }, {}));
	});

	it('keeps keys apart that a naive joining of text would merge', () => {
		const a = { ...DELIVERY, data: { 'a,b': 1 } };
		const b = { ...DELIVERY, data: { a: ',b:1' } };

		expect(deliveryKey(a, {})).not.toBe(deliveryKey(b, {}));
	});
});
