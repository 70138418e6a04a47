import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { Erp } from '../../../nodes/Erp/Erp.node';
import { optionsProperty } from '../../../nodes/Erp/actions/common.descriptions';
import { contactFields } from '../../../nodes/Erp/actions/contact/fields';
import { employeeFields } from '../../../nodes/Erp/actions/employee/fields';
import { productFields } from '../../../nodes/Erp/actions/product/fields';
import { knownColumns } from '../../../nodes/Erp/actions/shared/columns';
import { DEFAULT_TRANSPORT_OPTIONS } from '../../../nodes/shared/transport/types';

// Locators, collections and field lists are built by shared helpers, which eslint's static n8n rules cannot
// always see: these tests hold the assembled description to the same conventions.

const description = new Erp().description;

const all: INodeProperties[] = [];
const walk = (properties: INodeProperties[]) =>
	properties.forEach((property) => {
		all.push(property);
		for (const option of property.options ?? []) walk('values' in option ? (option as INodePropertyCollection).values : 'type' in option ? [option as INodeProperties] : []);
	});
walk(description.properties);
const operationOptions = description.properties.filter((p) => p.name === 'operation').flatMap((p) => p.options as INodePropertyOptions[]);

// Title Case, "Whether" booleans and sorted choices over every node: test/nodes/editorTexts.test.ts.
describe('ERP node description', () => {
	it('offers the 19 endpoints of the API document as operations, plus the keyed creates, by resource, and Custom API Call', () => {
		const operations = Object.fromEntries(
			description.properties
				.filter((p) => p.name === 'operation')
				.map((p) => [p.displayOptions?.show?.resource?.[0], (p.options as INodePropertyOptions[]).map((o) => o.value).sort()]),
		);
		expect(operations).toEqual({
			contact: ['create', 'delete', 'get', 'getAll', 'update', 'upsert'],
			invoice: ['create', 'get', 'getAll', 'markPaid', 'send'],
			product: ['create', 'get', 'getAll', 'getStock', 'update', 'upsert'],
			employee: ['create', 'createIfNew', 'get', 'getAll', 'getPayroll'],
			customApiCall: ['call'],
		});
	});

	it("gives every operation a sentence-case action (words in capitals, API, as they are) and a description that adds to it instead of repeating it (n8n's UX guidelines)", () => {
		const words = (text: string) =>
			text
				.toLowerCase()
				.split(/\W+/)
				.filter((word) => word && !['a', 'an', 'the'].includes(word))
				.join(' ');
		expect(operationOptions.find((o) => o.value === 'getAll')).toMatchObject({ name: 'Get Many', action: 'Get many contacts' });
		for (const { action, description: text } of operationOptions) {
			expect(action).toMatch(/^[A-Z][a-z]+( ([a-z0-9]+|[A-Z]+))*$/);
			expect(words(text ?? '')).not.toContain(words(action ?? ''));
			expect(words(text ?? '').split(' ').length).toBeGreaterThan(words(action ?? '').split(' ').length);
		}
	});

	it('starts every JSON field valid, so the editor marks no empty optional field (parameters and the field lists)', () => {
		const jsonDefaults = all.filter((p) => p.type === 'json').map((p) => p.default as string);
		const mapperDefaults = Object.values({ contactFields, employeeFields, productFields })
			.flatMap((specs) => knownColumns(specs))
			.filter((field) => field.type === 'object' || field.type === 'array')
			.map((field) => field.defaultValue as string);
		expect(jsonDefaults.length).toBeGreaterThan(0);
		expect(mapperDefaults).toHaveLength(3);
		for (const text of [...jsonDefaults, ...mapperDefaults]) expect(() => JSON.parse(text)).not.toThrow();
	});

	it('gives every record locator a list search and an integer-only By ID mode', () => {
		const locators = all.filter((p) => p.type === 'resourceLocator');
		// contact get/update/delete, invoice create/get/send/markPaid and the invoice Contact filter,
		// product get/update/getStock, employee get/getPayroll
		expect(locators).toHaveLength(13);
		const searches = Object.keys(new Erp().methods.listSearch);
		for (const locator of locators) {
			const [list, byId] = locator.modes ?? [];
			expect(searches).toContain(list.typeOptions?.searchListMethod);
			const regex = new RegExp((byId.validation?.[0] as unknown as { properties: { regex: string } }).properties.regex);
			expect(['42', ' 7 '].every((v) => regex.test(v))).toBe(true);
			expect(['0', '-3', '4.5', 'abc', ''].some((v) => regex.test(v))).toBe(false);
		}
	});

	it('is usable as an AI tool, with light and dark icons and a subtitle, and shows the transport defaults it really uses', () => {
		const option = (name: string) => (optionsProperty.options as INodeProperties[]).find((o) => o.name === name);
		expect([description.usableAsTool, description.icon, description.subtitle]).toEqual([true, { light: 'file:erp.svg', dark: 'file:erp.dark.svg' }, expect.stringContaining('$parameter["operation"]')]);
		const { maxRetries, timeoutMs, concurrency } = DEFAULT_TRANSPORT_OPTIONS;
		expect([option('maxRetries')?.default, option('timeout')?.default, option('concurrency')?.default]).toEqual([maxRetries, timeoutMs, concurrency]);
		expect(option('concurrency')?.description).toContain(`The default ${concurrency} `);
	});
});

// Operations that show their requests: each operation file names the method and literal path of every
// request it sends, where it sends it; operation files import no other operation file, nor does methods/.
describe('endpoints', () => {
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

	const found = sources.flatMap(({ file, source }) => endpointsIn(source).map((endpoint) => ({ endpoint, file })));

	it('sends exactly the endpoints of the API document', () => {
		expect([...new Set(found.map((f) => f.endpoint))].sort()).toEqual([...DOCUMENTED].sort());
	});

	it("sends each request from its resource's operation files (or the lookups beside them), or from the pick and field lists; each create's POST from its create.operation.ts", () => {
		for (const { file } of found) expect(file).toMatch(/^(actions\/(contact|invoice|product|employee)\/[\w.]+\.ts|methods\/\w+\.ts)$/);
		const fromOperations = new Set(found.filter((f) => f.file.endsWith('.operation.ts')).map((f) => f.endpoint));
		for (const endpoint of DOCUMENTED) expect(fromOperations).toContain(endpoint);
		for (const resource of RESOURCES) expect(found).toContainEqual({ endpoint: `POST /${resource}s`, file: `actions/${resource}/create.operation.ts` });
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

	it('has no operation file, nor methods/, import an operation file', () => {
		const importers = [...operations, ...sources.filter(({ file }) => file.startsWith('methods/'))];
		expect(importers.length).toBeGreaterThan(operations.length);
		for (const { file, source } of importers) expect(`${file}: ${importsOf(source).filter((from) => from.endsWith('.operation')).join(', ')}`).toBe(`${file}: `);
	});
});
