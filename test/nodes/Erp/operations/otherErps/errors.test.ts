import type { VariantName } from '../../../../../tooling/harness/sandbox';
import { createWith, jsonOf, useErpHarness } from '../setup';

// ERPs whose error answers have another shape than the sandbox's envelope.
const h = useErpHarness();

const takenSku = async () => {
	await h.run(createWith('product', { sku: 'DUP-1', name: 'First' }));
	await h.mark();
	return await h.run(createWith('product', { sku: 'DUP-1', name: 'Second' }), { continueOnFail: true });
};

describe('error answers of other shapes', () => {
	it('success-false-200: {success: false} answered 200 is an error with the ERP\'s message and code, never a record', async () => {
		await h.sandbox.admin.setVariants(['success-false-200']);
		const result = await takenSku();
		const [item] = jsonOf(result);
		expect(Object.keys(item).sort()).toEqual(expect.arrayContaining(['error']));
		expect(item).not.toHaveProperty('id');
		expect(`${String(item.error)} ${String(item.description)}`).toMatch(/sku/);
		expect(`${String(item.error)} ${String(item.description)}`).toMatch(/validation_failed/);
		expect((await h.requests()).map((r) => r.status)).toEqual([200]);
		expect(await h.sandbox.admin.records('products')).toHaveLength(1);
	});

	it.each<VariantName>(['problem-json', 'errors-array', 'errors-object'])('%s: a 422 shows the field and its message', async (variant) => {
		await h.sandbox.admin.setVariants([variant]);
		const [item] = jsonOf(await takenSku());
		expect(item.error).toMatch(/^The ERP refused to create the product \(422\): sku: .+/);
	});

	it('plain-text-errors: a 422 in plain text shows the ERP\'s sentence', async () => {
		await h.sandbox.admin.setVariants(['plain-text-errors']);
		const [item] = jsonOf(await takenSku());
		expect(`${String(item.error)} ${String(item.description)}`).toMatch(/sku/i);
	});
});
