import { createHash, createHmac, timingSafeEqual } from 'crypto';

export type SignatureEncoding = 'hex' | 'base64';

const SHA256_BYTES = 32;

/**
 * Compares two strings in constant time whatever their lengths: both are hashed to 32 bytes first, so neither
 * the length nor the first differing character shows in the timing.
 */
export function safeEqual(given: string, expected: string): boolean {
	const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
	return timingSafeEqual(digest(given), digest(expected));
}

/** The 32 signature bytes of a header value (`sha256=` prefix optional), or undefined when it is malformed. */
export function parseSignature(headerValue: string, encoding: SignatureEncoding): Buffer | undefined {
	const value = headerValue.trim().replace(/^sha256=/i, '');
	const wellFormed = encoding === 'hex' ? /^[0-9a-f]{64}$/i : /^[A-Za-z0-9+/]{43}=?$/;
	if (!wellFormed.test(value)) return undefined;
	const bytes = Buffer.from(value, encoding);
	return bytes.length === SHA256_BYTES ? bytes : undefined;
}

/** Whether the header value is the HMAC-SHA256 of the raw body under the secret, compared in constant time. */
export function verifyHmacSignature(
	rawBody: Buffer,
	secret: string,
	headerValue: string,
	encoding: SignatureEncoding,
): boolean {
	const given = parseSignature(headerValue, encoding);
	if (given === undefined) return false;
	const expected = createHmac('sha256', secret).update(rawBody).digest();
	return timingSafeEqual(given, expected);
}
