import { useTestSandbox } from '../../tooling/harness/sandbox';
import { createProduct } from './fixtures';

const sandbox = useTestSandbox();

describe('no-stock-in-list', () => {
	it('product records carry no stock_total anywhere; the stock rows and the low_stock filter still know it', async () => {
		const chair = await createProduct(sandbox.api, { low_stock_threshold: 10 });
		await sandbox.admin.setStock({ product_id: chair.id, warehouse_id: 1, quantity: 4 });
		expect((await sandbox.api.get('/products')).data.data[0].stock_total).toBe(4);
		await sandbox.admin.setVariants(['no-stock-in-list']);

		const listed = (await sandbox.api.get('/products')).data.data;
		expect(listed.map((p: { id: number }) => p.id)).toEqual([chair.id]);
		expect(listed[0]).not.toHaveProperty('stock_total');
		expect((await sandbox.api.get(`/products/${chair.id}`)).data.data).not.toHaveProperty('stock_total');
		expect((await sandbox.api.put(`/products/${chair.id}`, { name: 'Chair' })).data.data).not.toHaveProperty('stock_total');
		const desk = (await sandbox.api.post('/products', { sku: 'DESK-1', name: 'Desk' })).data.data;
		expect(desk).not.toHaveProperty('stock_total');
		expect(desk.sku).toBe('DESK-1');

		const rows = (await sandbox.api.get(`/products/${chair.id}/stock`)).data.data as Array<{ quantity: number }>;
		expect(rows.reduce((sum, row) => sum + row.quantity, 0)).toBe(4);
		expect((await sandbox.api.get('/products', { params: { low_stock: true } })).data.data.map((p: { id: number }) => p.id)).toEqual([chair.id, desk.id]);
	});
});
