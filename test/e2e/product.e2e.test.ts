import { fieldsParameter } from '../../tooling/host/fields';
import { calls, runErp } from '../../tooling/host/runErp';
import { connect, type Session } from '../../tooling/host/session';
import { byId } from '../../tooling/host/workflows';

describe('ERP node › Product, inside a real n8n', () => {
	let session: Session;
	beforeAll(async () => {
		session = await connect();
	});

	test('Create: a product with its price, unit and low-stock threshold in the ERP', async () => {
		const sku = `DESK-OAK-${Date.now()}`;
		const run = await runErp(session, {
			resource: 'product',
			operation: 'create',
			columns: fieldsParameter('product', {
				sku,
				name: 'Oak Standing Desk',
				unit_price: 549.9,
				unit: 'pcs',
				low_stock_threshold: 5,
				description: 'Electric, 70–120 cm',
			}),
		});

		expect(calls(run)).toEqual(['POST /products 201']);
		const stored = (await session.sandbox.records('products')).filter((p) => p.sku === sku);
		expect(stored).toEqual([
			expect.objectContaining({
				name: 'Oak Standing Desk',
				unit_price: 549.9,
				unit: 'pcs',
				low_stock_threshold: 5,
				description: 'Electric, 70–120 cm',
				active: true,
				stock_total: 0,
			}),
		]);
		expect(run.items).toEqual(stored);
	});

	test('Get: outputs the product exactly as the ERP holds it', async () => {
		const product = (await session.sandbox.records('products'))[3];
		const run = await runErp(session, { resource: 'product', operation: 'get', productId: byId(product.id) });

		expect(calls(run)).toEqual([`GET /products/${product.id} 200`]);
		expect(run.items).toEqual([product]);
	});

	test('Get Many: Low Stock Only returns exactly the ERP products below their threshold', async () => {
		const run = await runErp(session, {
			resource: 'product',
			operation: 'getAll',
			returnAll: true,
			filters: { lowStock: 'true' },
		});
		const low = (await session.sandbox.records('products')).filter((p) => p.stock_total < p.low_stock_threshold);

		expect(low.length).toBeGreaterThan(0);
		expect(run.requests.map((r) => [r.path, r.query.low_stock, r.status])).toEqual([['/products', 'true', 200]]);
		expect(run.items).toEqual(low);
	});

	test('Update: a new price and the product deactivated in the ERP', async () => {
		const before = (await session.sandbox.records('products'))[1];
		const run = await runErp(session, {
			resource: 'product',
			operation: 'update',
			productId: byId(before.id),
			updateFields: { unitPrice: 19.95, active: false },
		});

		expect(calls(run)).toEqual([`GET /products/${before.id} 200`, `PUT /products/${before.id} 200`]);
		const assigned = ['id', 'created_at', 'updated_at', 'stock_total'];
		const fields = Object.fromEntries(Object.entries(before).filter(([name]) => !assigned.includes(name)));
		expect(run.requests[1].body).toEqual({ ...fields, unit_price: 19.95, active: false });
		const after = await session.sandbox.record('products', before.id);
		expect(after).toEqual({ ...before, unit_price: 19.95, active: false, updated_at: after?.updated_at });
		expect(run.items).toEqual([after]);
	});

	test('Get Stock: one item per warehouse, as the ERP counts it', async () => {
		const product = (await session.sandbox.records('products'))[0];
		const run = await runErp(session, { resource: 'product', operation: 'getStock', productId: byId(product.id) });
		const stock = (await session.sandbox.records('stock'))
			.filter((row) => row.product_id === product.id)
			.map(({ product_id: _product, ...row }) => row);

		expect(calls(run)).toEqual([`GET /products/${product.id}/stock 200`]);
		expect(stock.map((row) => row.warehouse_code)).toEqual(['MAIN', 'NORTH', 'SOUTH']);
		expect(run.items.map(({ product_id: _product, ...row }) => row)).toEqual(stock);
		expect(stock.reduce((sum, row) => sum + row.quantity, 0)).toBe(product.stock_total);
	});
});
