import { Faults } from '../../sandbox/faults';
import { startTestSandbox, type TestSandbox } from '../../tooling/harness/sandbox';

/** A request as the fault drawing sees it: method, path, and what else tells it apart (query and body). */
type Request = [method: string, path: string, rest: string];

/** 60 distinct requests, each sent three times (a first attempt and two retries). */
const requests: Request[] = Array.from({ length: 60 }, (_, i): Request[] => {
	const request: Request = i % 2 ? ['GET', `/contacts/${i}`, ''] : ['POST', '/contacts', `{"email":"c${i}@x.example"}`];
	return [request, request, request];
}).flat();

/** Each request's faults, attempt by attempt, as the given arrival order produced them. */
function faultsInOrder(faults: Faults, order: Request[]): Map<string, string[]> {
	const seen = new Map<string, string[]>();
	for (const [method, path, rest] of order) {
		const key = `${method} ${path} ${rest}`;
		const kind = faults.pick(method, path, rest)?.kind ?? 'none';
		seen.set(key, [...(seen.get(key) ?? []), kind]);
	}
	return seen;
}

function seeded(seed: number): Faults {
	const faults = new Faults();
	faults.update({ dropRate: 0.2, nonJsonRate: 0.2, errorRate: 0.2, seed });
	return faults;
}

/** A fixed shuffle (no Math.random, so the test itself replays). */
const shuffled = <T>(items: T[]): T[] => items.map((item, i) => ({ item, rank: (i * 7919) % items.length })).sort((a, b) => a.rank - b.rank).map(({ item }) => item);

describe('seeded random faults', () => {
	it('the same seed gives the same faults to the same requests, whatever order they arrive in', () => {
		const inOrder = faultsInOrder(seeded(1234), requests);
		expect(faultsInOrder(seeded(1234), [...requests].reverse())).toEqual(inOrder);
		expect(faultsInOrder(seeded(1234), shuffled(requests))).toEqual(inOrder);
		// The draws are not all alike: the test compares faults, not only "none".
		const kinds = new Set([...inOrder.values()].flat());
		expect([...kinds].sort()).toEqual(['drop', 'html', 'none', 'status']);
	});

	it('another seed gives other faults; a retry is drawn anew, not doomed to repeat the first fault', () => {
		const first = faultsInOrder(seeded(1234), requests);
		expect(faultsInOrder(seeded(1235), requests)).not.toEqual(first);
		const attempts = [...first.values()];
		expect(attempts.some(([one, two]) => one !== two)).toBe(true);
	});

	it('setting the seed again starts the attempts afresh; without a seed the draws are not replayed', () => {
		const faults = seeded(99);
		const once = faultsInOrder(faults, requests);
		faults.update({ seed: 99 });
		expect(faultsInOrder(faults, requests)).toEqual(once);
		faults.update({ seed: null });
		expect(faults.settings.seed).toBeUndefined();
		const unseeded = [faultsInOrder(faults, requests), faultsInOrder(faults, requests)];
		expect(unseeded[0]).not.toEqual(unseeded[1]);
	});

	it('draws each fault at about its rate', () => {
		const faults = new Faults();
		faults.update({ errorRate: 0.3, seed: 7 });
		const struck = Array.from({ length: 5000 }, (_, i) => faults.pick('GET', `/contacts/${i}`, '')).filter(Boolean).length;
		// 5,000 draws at 0.3: 1,500 expected, standard deviation 32; ±200 is more than six of them.
		expect(struck).toBeGreaterThan(1300);
		expect(struck).toBeLessThan(1700);
	});
});

describe('PUT /__sandbox/faults {seed}', () => {
	let sandbox: TestSandbox;

	beforeAll(async () => {
		sandbox = await startTestSandbox();
	});
	afterAll(() => sandbox.close());

	const ids = Array.from({ length: 40 }, (_, i) => i + 1);

	/** Sends GET /contacts/<id> for all ids at once, in the order given, and answers which ids were struck. */
	async function struckReads(order: number[]): Promise<number[]> {
		const answers = await Promise.all(order.map(async (id) => ({ id, status: (await sandbox.api.get(`/contacts/${id}`)).status })));
		return answers.filter((a) => a.status === 500).map((a) => a.id).sort((a, b) => a - b);
	}

	it('replays the same faults over HTTP for concurrent requests, and shows and clears the seed', async () => {
		await sandbox.admin.reset();
		expect((await sandbox.admin.setFaults({ errorRate: 0.5, seed: 4242 })).seed).toBe(4242);
		const first = await struckReads(ids);
		await sandbox.admin.setFaults({ seed: 4242 });
		expect(await struckReads([...ids].reverse())).toEqual(first);
		expect(first.length).toBeGreaterThan(0);
		expect(first.length).toBeLessThan(40);
		// The request log agrees with what the client saw.
		const logged = (await sandbox.admin.requests()).filter((r) => r.fault?.source === 'random').map((r) => Number(r.path.split('/')[2]));
		expect(logged.sort((a, b) => a - b)).toEqual([...first, ...first].sort((a, b) => a - b));
		await sandbox.admin.reset();
		expect((await sandbox.admin.faults()).seed).toBeUndefined();
	});

	it('refuses a seed that is not a whole number from 0 to 2^32 − 1', async () => {
		for (const seed of [-1, 1.5, 2 ** 32, 'abc']) {
			const answer = await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seed }) });
			expect(answer.status).toBe(422);
			expect(JSON.stringify(await answer.json())).toMatch(/seed/);
		}
	});
});
