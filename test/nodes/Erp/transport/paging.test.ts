import type { IDataObject } from 'n8n-workflow';

import { useTestSandbox } from '../../../../tooling/harness/sandbox';
import { probeOn, runProbe } from './probe';
import type { ScriptedAnswer, SeenRequest } from './scriptedErp';
import { useScriptedErp } from './scriptedErp';

const records = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ({ id: from + i }));
const ids = (items: Array<{ json: IDataObject }>) => items.map((item) => item.json.id);
const listAll = [{ list: '/contacts' }];

/** 120 contacts, at most `max` a page; a larger per_page is refused with `refusal`. */
const refusingAbove = (max: number, refusal: ScriptedAnswer) => (request: SeenRequest): ScriptedAnswer => {
	const page = Number(request.query.page);
	const perPage = Number(request.query.per_page);
	if (perPage > max) return refusal;
	return { status: 200, body: { success: true, data: records(1, 120).slice((page - 1) * perPage, page * perPage), meta: { page, per_page: perPage, total: 120 } } };
};

describe('paging on the wire', () => {
	const scripted = useScriptedErp();
	it.each([
		['400, "must be at most 50"', 50, { status: 400, body: { success: false, error: { code: 'bad_request', message: 'per_page must be at most 50' } } }, ['100', '50', '50', '50']],
		['422, fields, "between 1 and 40"', 40, { status: 422, body: { success: false, error: { code: 'validation_failed', fields: { per_page: ['must be between 1 and 40'] } } } }, ['100', '40', '40', '40']],
		['400, plain text naming no size', 30, { status: 400, body: 'Invalid per_page' }, ['100', '50', '25', '25', '25', '25', '25']],
	])('reads every record when the ERP refuses a large per_page (%s), with no error', async (_shape, max, refusal, perPages) => {
		scripted.answer(refusingAbove(max, refusal));
		const result = await runProbe({ baseUrl: scripted.baseUrl, calls: listAll });
		expect(result.error).toBeUndefined();
		expect(ids(result.items)).toEqual(records(1, 120).map((r) => r.id));
		expect(scripted.requests.map((r) => r.query.per_page)).toEqual(perPages);
	});

	it('ends in a clear error when the ERP ignores page but reports a large total', async () => {
		scripted.answer((request) => ({
			status: 200,
			body: { success: true, data: records(1, 100), meta: { page: Number(request.query.page), per_page: 100, total: 5000 } },
		}));
		const result = await runProbe({ baseUrl: scripted.baseUrl, calls: listAll, options: { concurrency: 3 } });
		expect(result.error).toMatchObject({ name: 'NodeApiError', message: expect.stringMatching(/it seems to ignore the page parameter, so the list cannot be read in full$/) });
		expect((result.error as { description?: string }).description).toMatch(/^100 of the 5000 contacts the ERP reports were read/);
		expect(scripted.requests.length).toBeLessThanOrEqual(5);
	});

	describe('against the sandbox (it caps per_page at 100 silently)', () => {
		const sandbox = useTestSandbox();
		const probe = probeOn(sandbox);
		beforeEach(async () => await sandbox.admin.seed({ contacts: 230 }));

		it.each([
			[250, ['250', '250', '250']],
			[40, ['40', '40', '40', '40', '40', '40']],
		])('asks for Page Size %i and follows the size served', async (pageSize, perPages) => {
			const result = await probe({ calls: listAll, options: { pageSize } });
			expect(result.error).toBeUndefined();
			expect(ids(result.items)).toEqual(records(1, 230).map((r) => r.id));
			expect((await sandbox.admin.requests()).map((r) => r.query.per_page)).toEqual(perPages);
		});
	});
});
