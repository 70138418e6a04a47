import axios from 'axios';

import { VARIANT_NAMES } from '../../sandbox/variants';
import { startTestSandbox, useTestSandbox, type TestSandbox } from '../../tooling/harness/sandbox';

const sandbox = useTestSandbox();

const putVariant = (body: unknown) => axios.put(`${sandbox.url}/__sandbox/variant`, body, { validateStatus: () => true });

/** The status and meta of a contacts page, as a client sees them. */
async function contactsPage(query: string): Promise<{ status: number; meta?: Record<string, number> }> {
	const response = await sandbox.api.get(`/contacts?${query}`);
	return { status: response.status, meta: response.data.meta };
}

describe('switching variants at run time', () => {
	it('starts with none: the documented defaults', async () => {
		const { variants, settings } = await sandbox.admin.variant();
		expect(variants).toEqual([]);
		expect(settings).toMatchObject({ maxPerPage: 100, defaultPerPage: 25, perPageAboveMax: 'cap', put: 'merge', errorFormat: 'envelope' });
	});

	it('PUT switches the behaviour on the wire, GET shows it, DELETE goes back to the default', async () => {
		await sandbox.admin.seed({ contacts: 60 });
		const chosen = await sandbox.admin.setVariants(['strict-paging']);
		expect(chosen.variants).toEqual(['strict-paging']);
		expect(chosen.settings).toMatchObject({ maxPerPage: 50, perPageAboveMax: 'refuse-422' });
		expect(await sandbox.admin.variant()).toEqual(chosen);
		expect((await contactsPage('per_page=51')).status).toBe(422);
		expect((await sandbox.admin.resetVariants()).variants).toEqual([]);
		expect(await contactsPage('per_page=51')).toEqual({ status: 200, meta: { page: 1, per_page: 51, total: 60 } });
	});

	it('combines variants that touch different settings', async () => {
		await sandbox.admin.seed({ contacts: 5 });
		await sandbox.admin.setVariants(['strict-paging', 'no-total']);
		expect((await contactsPage('per_page=51')).status).toBe(422);
		expect(await contactsPage('per_page=50')).toEqual({ status: 200, meta: { page: 1, per_page: 50 } });
	});

	it('refuses variants that set one setting differently, naming both, and keeps the one in force', async () => {
		await sandbox.admin.setVariants(['no-total']);
		const response = await putVariant({ variants: ['small-pages', 'strict-paging'] });
		expect(response.status).toBe(422);
		expect(response.data.error.fields.variants[0]).toMatch(/small-pages.*strict-paging.*maxPerPage/);
		expect((await sandbox.admin.variant()).variants).toEqual(['no-total']);
	});

	it('refuses an unknown name, listing the known ones', async () => {
		const response = await putVariant({ variants: ['strict-paging', 'sap-mode'] });
		expect(response.status).toBe(422);
		expect(response.data.error.fields.variants[0]).toMatch(/unknown variant sap-mode.*small-pages/);
		expect((await putVariant({ variants: 'strict-paging' })).status).toBe(422);
	});

	it('takes explicit settings, alone or on top of variants', async () => {
		await sandbox.admin.seed({ contacts: 40 });
		await sandbox.admin.setVariants([], { maxPerPage: 7 });
		expect(await contactsPage('per_page=30')).toEqual({ status: 200, meta: { page: 1, per_page: 7, total: 40 } });
		await sandbox.admin.setVariants(['strict-paging'], { maxPerPage: 30 });
		const refused = await sandbox.api.get('/contacts?per_page=31');
		expect(refused.status).toBe(422);
		expect(refused.data.error.fields).toEqual({ per_page: ['must be at most 30'] });
	});

	it('refuses unknown settings and bad values with 422 per field', async () => {
		const response = await putVariant({ settings: { maxPerPage: 0, errorFormat: 'xml', colour: 'red', put: null } });
		expect(response.status).toBe(422);
		expect(Object.keys(response.data.error.fields).sort()).toEqual(['settings.colour', 'settings.errorFormat', 'settings.maxPerPage', 'settings.put']);
		expect((await sandbox.admin.variant()).variants).toEqual([]);
	});

	it('lists every named variant with what it models', async () => {
		const catalogue = await sandbox.admin.variants();
		expect(catalogue.map((variant) => variant.name)).toEqual(VARIANT_NAMES);
		expect(VARIANT_NAMES).toEqual(expect.arrayContaining(['small-pages', 'strict-paging', 'replace-put', 'problem-json', 'gateway-headers', 'future-events']));
		for (const variant of catalogue) {
			expect(variant.models.length).toBeGreaterThan(10);
			expect(Object.keys(variant.settings).length).toBeGreaterThan(0);
		}
	});

	it('leaves the admin routes alone: they keep their own envelope whatever the error format', async () => {
		await sandbox.admin.setVariants(['problem-json']);
		const response = await axios.get(`${sandbox.url}/__sandbox/records/nothing`, { validateStatus: () => true });
		expect(response.status).toBe(404);
		expect(response.data).toMatchObject({ success: false, error: { code: 'not_found' } });
	});
});

describe('variants chosen at start', () => {
	let started: TestSandbox;

	beforeAll(async () => {
		started = await startTestSandbox({ variants: ['no-total', 'delete-204'] });
	});
	afterAll(() => started.close());

	it('are in force from the first request, and again after a reset or a DELETE', async () => {
		const meta = async () => (await started.api.get('/contacts')).data.meta;
		expect(await meta()).toEqual({ page: 1, per_page: 25 });
		await started.admin.setVariants([]);
		expect(await meta()).toEqual({ page: 1, per_page: 25, total: 0 });
		await started.admin.reset();
		expect((await started.admin.variant()).variants).toEqual(['no-total', 'delete-204']);
		await started.admin.setVariants(['strict-paging']);
		expect((await started.admin.resetVariants()).variants).toEqual(['no-total', 'delete-204']);
		expect(await meta()).toEqual({ page: 1, per_page: 25 });
	});

	it('an unknown or conflicting start choice fails the start', async () => {
		await expect(startTestSandbox({ variants: ['nope' as never] })).rejects.toThrow(/unknown variant nope/);
		await expect(startTestSandbox({ variants: ['problem-json', 'errors-array'] })).rejects.toThrow(/errorFormat/);
	});
});
