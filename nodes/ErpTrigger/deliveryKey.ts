import { createHash } from 'crypto';

import { canonicalJson } from '../shared/canonicalJson';
import type { ErpDelivery } from './parseDelivery';
import type { RequestHeaders } from './verifyDelivery';

/**
 * Headers in which common webhook senders name a delivery or event, the same on every retry and resend, in the
 * order they are looked for. Not X-Request-Id: many senders set it anew on each attempt.
 */
export const DELIVERY_ID_HEADERS = [
	'X-Erp-Delivery',
	'X-Delivery-Id',
	'X-Event-Id',
	'X-Webhook-Id',
	'Webhook-Id',
	'Idempotency-Key',
] as const;

/** A header name as HTTP allows it (RFC 9110 token). */
export const isHeaderName = (name: string): boolean => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name);

/** SHA-256 (hex) of the canonical JSON of the delivery's event, timestamp and data. */
export function contentDigest({ event, timestamp, data }: ErpDelivery): string {
	return createHash('sha256').update(canonicalJson({ event, timestamp, data }), 'utf8').digest('hex');
}

function headerValue(headers: RequestHeaders, name: string): string | undefined {
	const wanted = name.trim().toLowerCase();
	const found = Object.entries(headers).find(([key]) => key.toLowerCase() === wanted)?.[1];
	const value = (Array.isArray(found) ? found[0] : found)?.trim();
	return value ? value : undefined;
}

/**
 * A key that is the same for every copy of one delivery (a retry, a resend) and differs between deliveries: the
 * value of the header the user named, else of the first common delivery id header present, else the digest of
 * the delivery's content. Header names are matched in any letter case.
 */
export function deliveryKey(delivery: ErpDelivery, headers: RequestHeaders, userHeader = ''): string {
	for (const name of userHeader.trim() ? [userHeader, ...DELIVERY_ID_HEADERS] : DELIVERY_ID_HEADERS) {
		const value = headerValue(headers, name);
		if (value !== undefined) return value;
	}
	return contentDigest(delivery);
}
