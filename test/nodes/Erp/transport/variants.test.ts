import type { IDataObject } from 'n8n-workflow';

import type { VariantName } from '../../../../tooling/harness/sandbox';
import { useTestSandbox } from '../../../../tooling/harness/sandbox';
import { probeOn } from './probe';

const ids = (items: Array<{ json: IDataObject }>) => items.map((item) => item.json.id);
const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('the transport against the sandbox variants (other reasonable ERPs)', () => {
	const sandbox = useTestSandbox();
	const probe = probeOn(sandbox);
	const perPages = async () => (await sandbox.admin.requests()).map((r) => Number(r.query.per_page));

	describe('paging', () => {
		beforeEach(async () => await sandbox.admin.seed({ contacts: 120 }));

		it.each([
			['small-pages', [100, 100, 100, 100, 100, 100]],
			['strict-paging', [100, 50, 50, 50]],
			['strict-paging-400', [100, 50, 50, 50]],
			['fixed-pages', [100, 100, 100, 100, 100]],
			['no-total', [100, 100]],
		] as Array<[VariantName, number[]]>)('%s: Return All reads every contact in order, with no error', async (variant, asked) => {
			await sandbox.admin.setVariants([variant]);
			const result = await probe({ calls: [{ list: '/contacts' }] });
			expect(result.error).toBeUndefined();
			expect(ids(result.items)).toEqual(oneTo(120));
			expect(await perPages()).toEqual(asked);
		});

		it('page-ignored: a clear error, not 100 silently truncated contacts and no endless walk', async () => {
			await sandbox.admin.setVariants(['page-ignored']);
			const result = await probe({ calls: [{ list: '/contacts' }], options: { concurrency: 4 } });
			expect(result.error).toMatchObject({ name: 'NodeApiError', message: expect.stringMatching(/it seems to ignore the page parameter/) });
			expect((result.error as { description?: string }).description).toMatch(/^100 of the 120 contacts the ERP reports were read/);
			expect((await sandbox.admin.requests()).length).toBeLessThanOrEqual(6);
		});
	});

	describe('rate-limit headers', () => {
		const getContacts = { request: { method: 'GET' as const, path: '/contacts', doing: { action: 'list contacts', noun: 'contact' } } };

		it('gateway-headers: a 503 carrying an hour-long X-RateLimit-Reset is retried on the short schedule', async () => {
			await sandbox.admin.setVariants(['gateway-headers']);
			await sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'status', status: 503 }, times: 2 });
			const result = await probe({ calls: [getContacts] });
			expect(result.error).toBeUndefined();
			expect((await sandbox.admin.requests()).map((r) => r.status)).toEqual([503, 503, 200]);
		});

		it.each(['ietf-ratelimit', 'no-retry-after'] as VariantName[])('%s: a 429 is waited out and retried', async (variant) => {
			await sandbox.admin.setVariants([variant]);
			await sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'rateLimit' } });
			const result = await probe({ calls: [getContacts] });
			expect(result.error).toBeUndefined();
			expect((await sandbox.admin.requests()).map((r) => r.status)).toEqual([429, 200]);
		});
	});

	describe('error formats: success:false on a 200', () => {
		it('success-false-200: a refused create is an error with the field messages, sent once', async () => {
			await sandbox.admin.setVariants(['success-false-200']);
			const result = await probe({ calls: [{ request: { method: 'POST', path: '/contacts', doing: { action: 'create the contact', noun: 'contact' }, body: { last_name: 'Lovelace' }, expect: 'record' } }] });
			expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '200', message: expect.stringMatching(/^The ERP refused to create the contact: first_name: is required/) });
			expect(await sandbox.admin.records('contacts')).toHaveLength(0);
			expect(await sandbox.admin.requests()).toHaveLength(1);
		});
	});
});
