import { pathProblem, staysBelow } from '../../../nodes/shared/apiPath';

// Custom API Call's Path: appended to the credential's Base URL as it is, so it must stay below it, however a server
// or proxy on the way reads it (decoding once or twice, backslashes as slashes, `;` parameters).

const BASE = 'https://erp.example.com/api/v1';

describe('pathProblem', () => {
	it.each(['/orders', '/orders/42', '/orders/42/lines', '/', '/orders/SO%2F1001', '/orders/a.b', '/orders/...', '/files/report..pdf', '/orders/%E2%82%AC'])(
		'takes %s',
		(path) => {
			expect(pathProblem(path)).toBeUndefined();
			expect(staysBelow(BASE, path)).toBe(true);
		},
	);

	it.each([
		['', 'is empty'],
		['https://erp.example.com/api/v1/orders', 'is a full URL'],
		['HTTP://evil.example', 'is a full URL'],
		['javascript:alert(1)', 'is a full URL'],
		['orders/42', 'must start with /'],
		['@evil.example/x', 'must start with /'],
		['//evil.example/x', 'starts with //'],
		['/orders/..', 'contains a . or .. segment'],
		['/orders/./42', 'contains a . or .. segment'],
		['/orders/%2e%2E/x', 'contains a . or .. segment'],
		['/orders/.%2e/x', 'contains a . or .. segment'],
		['/orders/%252e%252e/x', 'contains a . or .. segment'],
		['/orders%2F..%2Fx', 'contains a . or .. segment'],
		['/orders/..;jsessionid=1/x', 'contains a . or .. segment'],
		['/orders\\..\\x', 'contains a backslash'],
		['/orders/%5C..%5Cx', 'contains a backslash'],
		['/orders?status=open', 'contains ?'],
		['/orders#top', 'contains #'],
		['/orders/%0d%0aHost: evil', 'contains a control character'],
		['/orders/50%off', 'has a % that is not followed by two hexadecimal digits'],
		['/orders/%2e%2', 'has a % that is not followed by two hexadecimal digits'],
	])('refuses %j: %s', (path, problem) => {
		expect(pathProblem(path)?.problem).toContain(problem);
		expect(pathProblem(path)?.fix).toMatch(/\.$/);
	});

	it('says how to write a path without its slash', () => {
		expect(pathProblem('orders/42')?.fix).toBe('Write it as /orders/42 (e.g. /orders or /orders/42).');
	});
});

describe('staysBelow: the final check of the URL the request would go to', () => {
	it.each([
		[BASE, '/%2e%2e/contacts'],
		[BASE, '/../x'],
		['https://erp.example.com', '@evil.example/x'],
		[BASE, 'x'],
	])('%s + %s leaves it', (base, path) => {
		expect(staysBelow(base, path)).toBe(false);
	});

	it('holds for a Base URL without a path too', () => {
		expect(staysBelow('https://erp.example.com', '/orders')).toBe(true);
		expect(staysBelow('http://127.0.0.1:4010/api/v1', '/orders/42')).toBe(true);
	});
});
