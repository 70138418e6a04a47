import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Issue 23, "operations that show their requests": each operation file names the method and literal path of every
// request it sends, where it sends it; operation files import no other operation file, nor does methods/.
const ERP = path.join(__dirname, '../../../nodes/Erp');
const RESOURCES = ['contact', 'invoice', 'product', 'employee'];

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

const sources = files(ERP).map((file) => ({ file: path.relative(ERP, file), source: readFileSync(file, 'utf8') }));
const operations = sources.filter(({ file }) => file.endsWith('.operation.ts'));

/** Every request a file sends, as written: `method: 'X', path: '/…'`, or a list walk's `path: '/…'` (GET). */
function endpointsIn(source: string): string[] {
	return [...source.matchAll(/(?:method: '(GET|POST|PUT|DELETE)', )?path: [`'](\/[^`']+)[`']/g)].map(
		([, method, literal]) => `${method ?? 'GET'} ${literal.replace(/\$\{[^}]+\}/g, '{id}')}`,
	);
}

const importsOf = (source: string) => [...source.matchAll(/from '([^']+)'/g)].map(([, from]) => from);

describe('endpoints', () => {
	const found = sources.flatMap(({ file, source }) => endpointsIn(source).map((endpoint) => ({ endpoint, file })));

	it('sends exactly the endpoints of the API document', () => {
		expect([...new Set(found.map((f) => f.endpoint))].sort()).toEqual([...DOCUMENTED].sort());
	});

	it("sends each request from its resource's operation files (or the lookups beside them), or from the pick and field lists", () => {
		for (const { file } of found) expect(file).toMatch(/^(actions\/(contact|invoice|product|employee)\/[\w.]+\.ts|methods\/\w+\.ts)$/);
		const fromOperations = new Set(found.filter((f) => f.file.endsWith('.operation.ts')).map((f) => f.endpoint));
		for (const endpoint of DOCUMENTED) expect(fromOperations).toContain(endpoint);
	});

	it("sends each create's POST from its create.operation.ts", () => {
		for (const resource of RESOURCES) {
			const create = sources.find(({ file }) => file === `actions/${resource}/create.operation.ts`);
			expect(endpointsIn(create?.source ?? '')).toContain(`POST /${resource}s`);
		}
	});

	it('writes every path where its request is made, never in a constant', () => {
		for (const { file, source: withComments } of sources) {
			const source = withComments.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
			for (const match of source.matchAll(/[`'](\/(contacts|invoices|products|employees)\b)/g)) {
				expect(`${file}: ${source.slice(Math.max(0, (match.index ?? 0) - 6), match.index)}`).toBe(`${file}: path: `);
			}
		}
	});

	it('names each endpoint an operation sends in its doc comment', () => {
		for (const { file, source } of operations) {
			for (const endpoint of endpointsIn(source)) expect(`${file}: ${source.includes(endpoint) ? endpoint : 'missing'}`).toBe(`${file}: ${endpoint}`);
		}
	});

	it('has no operation file import another operation file', () => {
		for (const { file, source } of operations) expect(`${file}: ${importsOf(source).filter((from) => from.endsWith('.operation')).join(', ')}`).toBe(`${file}: `);
	});

	it('has methods/ import no operation file', () => {
		const methods = sources.filter(({ file }) => file.startsWith('methods/'));
		expect(methods.length).toBeGreaterThan(0);
		for (const { file, source } of methods) expect(`${file}: ${importsOf(source).filter((from) => from.endsWith('.operation')).join(', ')}`).toBe(`${file}: `);
	});
});
