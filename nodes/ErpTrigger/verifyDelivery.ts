import { safeEqual, verifyHmacSignature, type SignatureEncoding } from './verifySignature';

export type VerificationMethod = 'none' | 'sharedSecret' | 'hmacSha256';

/** Request headers as n8n gives them: names in lower case. */
export type RequestHeaders = Record<string, string | string[] | undefined>;

export type Verification =
	| { method: 'sharedSecret'; headerName: string }
	| { method: 'hmacSha256'; headerName: string; encoding: SignatureEncoding };

const SAME_SECRET = 'check that the ERP and the Webhook Signing Secret of the ERP API credential are the same';

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
