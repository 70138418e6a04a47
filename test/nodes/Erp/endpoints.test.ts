import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Issue "Maintainer-grade nodes": every endpoint is found by grep in the one operation file that calls it.
const NODES = path.join(__dirname, '../../../nodes');

/** The 19 endpoints of the API document (section 4), as method and path with {id}. */
const DOCUMENTED = [
	'GET /contacts', 'POST /contacts', 'GET /contacts/{id}', 'PUT /contacts/{id}', 'DELETE /contacts/{id}',
	'GET /invoices', 'POST /invoices', 'GET /invoices/{id}', 'POST /invoices/{id}/send', 'POST /invoices/{id}/mark-paid',
	'GET /products', 'POST /products', 'GET /products/{id}', 'PUT /products/{id}', 'GET /products/{id}/stock',
	'GET /employees', 'POST /employees', 'GET /employees/{id}', 'GET /employees/{id}/payroll',
];

function files(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? files(path.join(dir, entry.name)) : entry.name.endsWith('.ts') ? [path.join(dir, entry.name)] : [],
	);
}

const normalized = (literal: string) => literal.replace(/\$\{[^}]+\}/g, '{id}');

/** Every endpoint a file calls, as written in its code: a request's method and literal path, a list walk (GET), a keyed create (POST). */
function endpointsIn(source: string): string[] {
	const requests = [...source.matchAll(/method: '(GET|POST|PUT|DELETE)', path: [`'](\/[^`']+)[`']/g)].map(([, m, p]) => `${m} ${normalized(p)}`);
	const lists = [...source.matchAll(/(?:listPath = |fetchList\(client, )[`'](\/[^`']+)[`']/g)].map(([, p]) => `GET ${normalized(p)}`);
	const creates = [...source.matchAll(/createPath: '(\/[^']+)'/g)].map(([, p]) => `POST ${p}`);
	return [...requests, ...lists, ...creates];
}

describe('endpoints', () => {
	const found = files(NODES).flatMap((file) => endpointsIn(readFileSync(file, 'utf8')).map((endpoint) => ({ endpoint, file: path.relative(NODES, file) })));

	it('calls exactly the endpoints of the API document, each written in one operation file only', () => {
		expect(found.map((f) => f.endpoint).sort()).toEqual([...DOCUMENTED].sort());
		for (const { file } of found) expect(file).toMatch(/^Erp\/actions\/(contact|invoice|product|employee)\/\w+\.operation\.ts$/);
	});

	it('names each endpoint in a doc comment of its operation file', () => {
		for (const { endpoint, file } of found) {
			expect(readFileSync(path.join(NODES, file), 'utf8')).toContain(`${endpoint.replace(/\{id\}/g, '{id}')}`);
		}
	});
});
