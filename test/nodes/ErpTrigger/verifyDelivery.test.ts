import { createHmac } from 'node:crypto';

import { parseSignature, safeEqual, verifyHmacSignature } from '../../../nodes/ErpTrigger/verifyDelivery';

// RFC-style test vector: HMAC-SHA256, key "key", message "The quick brown fox jumps over the lazy dog".
const BODY = Buffer.from('The quick brown fox jumps over the lazy dog');
const HEX = 'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8';
const BASE64 = '97yD9DBThCSxMpjmqm+xQ+9NWaFJRhdZl0edvC0aPNg=';

describe('safeEqual', () => {
	it('is true only for identical strings', () => {
		expect(safeEqual('s3cret', 's3cret')).toBe(true);
		expect(safeEqual('s3cret', 's3creT')).toBe(false);
		expect(safeEqual('s3cret', 's3cret ')).toBe(false);
	});

	it('compares strings of different lengths without throwing', () => {
		expect(safeEqual('', 'long-secret-value')).toBe(false);
		expect(safeEqual('a'.repeat(1000), 'a')).toBe(false);
	});
});

describe('parseSignature', () => {
	it('reads hex, with or without a sha256= prefix in any case, in upper or lower case', () => {
		const bytes = Buffer.from(HEX, 'hex');
		expect(parseSignature(HEX, 'hex')).toEqual(bytes);
		expect(parseSignature(`sha256=${HEX}`, 'hex')).toEqual(bytes);
		expect(parseSignature(`SHA256=${HEX.toUpperCase()}`, 'hex')).toEqual(bytes);
		expect(parseSignature(`  sha256=${HEX} `, 'hex')).toEqual(bytes);
	});

	it('reads base64, padded or not', () => {
		const bytes = Buffer.from(HEX, 'hex');
		expect(parseSignature(BASE64, 'base64')).toEqual(bytes);
		expect(parseSignature(`sha256=${BASE64}`, 'base64')).toEqual(bytes);
		expect(parseSignature(BASE64.replace(/=$/, ''), 'base64')).toEqual(bytes);
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
	] as const)('rejects %s', (_case, value, encoding) => {
		expect(parseSignature(value, encoding)).toBeUndefined();
	});
});

describe('verifyHmacSignature', () => {
	it('accepts the HMAC-SHA256 of the raw body in hex or base64', () => {
		expect(verifyHmacSignature(BODY, 'key', `sha256=${HEX}`, 'hex')).toBe(true);
		expect(verifyHmacSignature(BODY, 'key', BASE64, 'base64')).toBe(true);
	});

	it('rejects another secret, a changed body, a changed signature and a malformed header', () => {
		expect(verifyHmacSignature(BODY, 'other', HEX, 'hex')).toBe(false);
		expect(verifyHmacSignature(Buffer.concat([BODY, Buffer.from(' ')]), 'key', HEX, 'hex')).toBe(false);
		expect(verifyHmacSignature(BODY, 'key', `${HEX.slice(0, -1)}9`, 'hex')).toBe(false);
		expect(verifyHmacSignature(BODY, 'key', 'not-a-signature', 'hex')).toBe(false);
	});

	it('signs bytes, not text: the same JSON re-serialised does not verify', () => {
		const raw = Buffer.from('{"event": "invoice.paid"}');
		const signature = createHmac('sha256', 'key').update(raw).digest('hex');

		expect(verifyHmacSignature(raw, 'key', signature, 'hex')).toBe(true);
		expect(verifyHmacSignature(Buffer.from(JSON.stringify(JSON.parse(raw.toString()))), 'key', signature, 'hex')).toBe(
			false,
		);
	});
});
