import { ErpApi } from '../../../../credentials/ErpApi.credentials';
import { Erp } from '../../../../nodes/Erp/Erp.node';
import { runListSearch } from '../../../../tooling/harness/run-list-search';
import { startTestSandbox } from '../../../../tooling/harness/sandbox';
import type { TestSandbox } from '../../../../tooling/harness/sandbox';

let sandbox: TestSandbox;
beforeAll(async () => {
	sandbox = await startTestSandbox({ seed: { contacts: 120, invoices: 10, products: 8, employees: 5 } });
});
afterAll(async () => await sandbox.close());

const search = async (method: string, filter?: string, paginationToken?: string) =>
	await runListSearch({
		nodeType: new Erp(),
		method,
		credentialType: new ErpApi(),
		credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
		filter,
		paginationToken,
	});

describe('resource locator lists', () => {
	it("pages through contacts in the ERP's own page size (none is asked for), labelled by name and company", async () => {
		const contacts = await sandbox.admin.records('contacts');
		const first = await search('searchContacts');
		// 25: the sandbox's default page size (docs/api-assumptions.md).
		expect(first.results).toHaveLength(25);
		expect((await sandbox.admin.requests()).at(-1)?.query).toEqual({ page: '1' });
		expect(first.results[0]).toEqual({
			name: `${contacts[0].first_name} ${contacts[0].last_name}${contacts[0].company ? ` · ${contacts[0].company}` : ''} (#${contacts[0].id})`,
			value: String(contacts[0].id),
		});
		expect(first.paginationToken).toBe('2');
		const last = await search('searchContacts', undefined, '5');
		expect(last.results.map((r) => r.value)).toEqual(contacts.slice(100).map((c) => String(c.id)));
		expect(last.paginationToken).toBeUndefined();
	});

	it('passes the search box to the ERP', async () => {
		const contacts = await sandbox.admin.records('contacts');
		const target = contacts[17];
		const found = await search('searchContacts', target.email ?? target.first_name);
		expect(found.results.map((r) => r.value)).toContain(String(target.id));
		const log = await sandbox.admin.requests();
		expect(log[log.length - 1].query).toEqual({ search: target.email ?? target.first_name, page: '1' });
	});

	it.each([
		['searchInvoices', 'invoices'],
		['searchProducts', 'products'],
		['searchEmployees', 'employees'],
	] as const)('%s lists every %s', async (method, resource) => {
		const records = await sandbox.admin.records(resource);
		const result = await search(method);
		expect(result.results.map((r) => r.value)).toEqual(records.map((r) => String(r.id)));
	});

	it('labels invoices by number, total and status', async () => {
		const [invoice] = await sandbox.admin.records('invoices');
		const result = await search('searchInvoices');
		expect(result.results[0].name).toBe(`${invoice.number} · ${invoice.total} ${invoice.currency} · ${invoice.status} (#${invoice.id})`);
	});
});
