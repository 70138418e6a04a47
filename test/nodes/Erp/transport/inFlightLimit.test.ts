import { InFlightLimit } from '../../../../nodes/Erp/transport/inFlightLimit';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('InFlightLimit', () => {
	it('never runs more than its limit at once, starts the waiting ones in order, and runs them all', async () => {
		const limit = new InFlightLimit(3);
		let open = 0;
		let mostOpen = 0;
		const started: number[] = [];
		const results = await Promise.all(
			Array.from({ length: 10 }, (_, n) =>
				limit.run(async () => {
					started.push(n);
					open++;
					mostOpen = Math.max(mostOpen, open);
					for (let t = 0; t < 1 + (n % 3); t++) await turn();
					open--;
					return n * 2;
				}),
			),
		);
		expect(results).toEqual(Array.from({ length: 10 }, (_, n) => n * 2));
		expect(mostOpen).toBe(3);
		expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
	});

	it('gives the slot back when the work fails', async () => {
		const limit = new InFlightLimit(1);
		await expect(limit.run(async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
		await expect(limit.run(async () => 'next')).resolves.toBe('next');
	});
});
