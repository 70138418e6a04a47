import { safeEqual, verifyHmacSignature, type SignatureEncoding } from './verifySignature';

export type VerificationMethod = 'none' | 'sharedSecret' | 'hmacSha256';

/** Request headers as n8n gives them: names in lower case. */
export type RequestHeaders = Record<string, string | string[] | undefined>;

export type Verification =
	| { method: 'sharedSecret'; headerName: string }
	| { method: 'hmacSha256'; headerName: string; encoding: SignatureEncoding };

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
	const given = header(headers, verification.headerName);
	if (given === undefined || given === '') return `Missing ${verification.headerName} header`;

	if (verification.method === 'sharedSecret') {
		return safeEqual(given, secret) ? undefined : `${verification.headerName} does not match the shared secret`;
	}
	const signed = rawBody !== undefined && verifyHmacSignature(rawBody, secret, given, verification.encoding);
	return signed ? undefined : `${verification.headerName} is not a valid signature of the body`;
}
