import type { VariantName } from '../../../../../tooling/harness/sandbox';
import { jsonOf, useErpHarness } from '../setup';

// ERPs that chose another page size, limit or paging behaviour than the sandbox (docs/api-assumptions.md).
const h = useErpHarness({ contacts: 130 });

const getAll = (extra: object = {}) => ({ resource: 'contact', operation: 'getAll', returnAll: true, ...extra });

describe('paging on ERPs with other page limits', () => {
	it.each<[VariantName, string]>([
		['small-pages', 'caps per_page at 20 silently'],
		['strict-paging', 'refuses per_page above 50 with 422'],
		['strict-paging-400', 'refuses per_page above 50 with 400'],
		['fixed-pages', 'ignores per_page and serves 25'],
		['no-total', 'sends no meta.total'],
	])('%s (%s): Return All gives every record once, in order, without an error; so do Limit and Concurrency', async (variant) => {
		await h.sandbox.admin.setVariants([variant]);
		const stored = await h.sandbox.admin.records('contacts');
		for (const options of [{}, { concurrency: 4 }]) {
			const all = await h.run(getAll({ options }));
			expect(all.error).toBeUndefined();
			expect(jsonOf(all)).toEqual(stored);
		}
		const limited = await h.run({ resource: 'contact', operation: 'getAll', returnAll: false, limit: 70 });
		expect(jsonOf(limited)).toEqual(stored.slice(0, 70));
	});

	it('strict-paging: learns the accepted size from the refusal, once per node run', async () => {
		await h.sandbox.admin.setVariants(['strict-paging']);
		const result = await h.run(getAll());
		expect(jsonOf(result)).toHaveLength(130);
		const asked = (await h.requests()).map((r) => `${r.query.page}/${r.query.per_page} ${r.status}`);
		expect(asked).toEqual(['1/100 422', '1/50 200', '2/50 200', '3/50 200']);
	});

	it('strict-paging-400 with an unhelpful message: halves the size until the ERP accepts it', async () => {
		await h.sandbox.admin.setVariants(['strict-paging-400']);
		const result = await h.run(getAll());
		expect(jsonOf(result)).toHaveLength(130);
		const sizes = (await h.requests()).map((r) => Number(r.query.per_page));
		expect(sizes.filter((size) => size <= 50).length).toBeGreaterThan(0);
		expect((await h.requests()).filter((r) => r.status !== 200).length).toBeLessThanOrEqual(2);
	});

	it('Page Size asks the ERP for that many records per page', async () => {
		await h.sandbox.admin.setVariants(['strict-paging']);
		const result = await h.run(getAll({ options: { pageSize: 40 } }));
		expect(jsonOf(result)).toHaveLength(130);
		expect((await h.requests()).map((r) => `${r.query.per_page} ${r.status}`)).toEqual(['40 200', '40 200', '40 200', '40 200']);
	});

	it('page-ignored: a service that always answers the first page ends in a clear error, not a silent first page', async () => {
		await h.sandbox.admin.setVariants(['page-ignored']);
		const result = await h.run(getAll());
		expect(result.items).toEqual([]);
		expect(result.error?.message).toMatch(/page/i);
		expect((await h.requests()).length).toBeLessThanOrEqual(3);
	});

	it('strict-paging: Create or Update finds existing contacts through the refused page size too', async () => {
		await h.sandbox.admin.setVariants(['strict-paging', 'ignored-filters']);
		const [first] = await h.sandbox.admin.records('contacts');
		const result = await h.run({
			resource: 'contact',
			operation: 'upsert',
			columns: { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] },
		}, { input: [{ email: first.email, company: 'Found Through Pages' }] });
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: first.id, company: 'Found Through Pages', action: 'updated' })]);
		expect(await h.sandbox.admin.records('contacts')).toHaveLength(130);
	});
});
