import { createHash, createHmac, timingSafeEqual } from 'crypto';

export type VerificationMethod = 'none' | 'sharedSecret' | 'hmacSha256';

export type SignatureEncoding = 'hex' | 'base64';

/** Request headers as n8n gives them: names in lower case. */
export type RequestHeaders = Record<string, string | string[] | undefined>;

export type Verification =
	| { method: 'sharedSecret'; headerName: string }
	| { method: 'hmacSha256'; headerName: string; encoding: SignatureEncoding };

const SHA256_BYTES = 32;
const SAME_SECRET = 'check that the ERP and the Webhook Signing Secret of the ERP API credential are the same';

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

/**
 * Whether the header value is the HMAC-SHA256 of the raw body under the secret, compared in constant time. The
 * bytes as received, never a re-serialised body: the ERP signed its own spacing, key order and escapes.
 */
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

function header(headers: RequestHeaders, name: string): string | undefined {
	const value = headers[name.trim().toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks a delivery against the user's verification setting. Returns why it must be rejected (answered 401),
 * or undefined when it passes.
 */
export function verifyDelivery(
	verification: Verification,
	secret: string,
	headers: RequestHeaders,
	rawBody: Buffer | undefined,
): string | undefined {
	const { headerName, method } = verification;
	const given = header(headers, headerName);
	if (given === undefined || given === '') {
		return `Missing ${headerName} header: ${method === 'sharedSecret' ? 'send the secret in it' : 'send the HMAC-SHA256 of the body, keyed with the secret'}`;
	}

	if (method === 'sharedSecret') {
		return safeEqual(given, secret) ? undefined : `${headerName} does not match the shared secret: ${SAME_SECRET}`;
	}
	const signed = rawBody !== undefined && verifyHmacSignature(rawBody, secret, given, verification.encoding);
	return signed ? undefined : `${headerName} is not a valid signature of the body: ${SAME_SECRET}`;
}
