import { ErpApi } from '../../credentials/ErpApi.credentials';
import { Erp } from '../../nodes/Erp/Erp.node';
import { createContact } from '../sandbox/fixtures';
import { runListSearch } from '../../tooling/harness/run-list-search';
import { useTestSandbox } from '../../tooling/harness/sandbox';

describe('runListSearch', () => {
	const sandbox = useTestSandbox();

	const search = (filter?: string, paginationToken?: string) =>
		runListSearch({
			nodeType: new Erp(),
			method: 'searchContacts',
			credentialType: new ErpApi(),
			credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
			filter,
			paginationToken,
		});
	const lastRequest = async () => (await sandbox.admin.requests()).at(-1);

	it('calls the method with the credential applied, and pages with its token', async () => {
		// 30 contacts: a page of the sandbox's default 25, then one of 5.
		await sandbox.admin.seed({ contacts: 30 });
		const ids = (await sandbox.admin.records('contacts')).map((contact) => String(contact.id));
		const first = await search();
		const second = await search(undefined, first.paginationToken);

		expect(first.results.map((result) => result.value)).toEqual(ids.slice(0, 25));
		expect(first.paginationToken).toBe('2');
		expect(second.results.map((result) => result.value)).toEqual(ids.slice(25));
		expect(second.paginationToken).toBeUndefined();
		expect(await lastRequest()).toMatchObject({ path: '/contacts', query: { page: '2' }, auth: 'full' });
	});

	it('passes the filter', async () => {
		await sandbox.admin.seed({ contacts: 5 });
		const { id } = await createContact(sandbox.api, { first_name: 'Zoltan', last_name: 'Quist', company: 'Acme' });
		const { results } = await search('quist');

		expect(results).toEqual([{ name: `Zoltan Quist · Acme (#${id})`, value: String(id) }]);
		expect(await lastRequest()).toMatchObject({ query: { page: '1', search: 'quist' } });
	});

	it('rejects an unknown method', async () => {
		await expect(
			runListSearch({ nodeType: new Erp(), method: 'nope', credentialType: new ErpApi(), credentials: {} }),
		).rejects.toThrow('Node "erp" has no listSearch method "nope"');
	});
});
