import { SPACING_MS, spacingFor } from '../../../nodes/shared/spaceSameEvents';

// Each case on its own clock far from the others, so that what one case records has expired for the next.
let clock = 1_000_000;
const later = () => (clock += 10 * SPACING_MS);

describe('items of one event key in one workflow start SPACING_MS apart in this process', () => {
	test('the first start of a key waits for nothing; the same key at the same moment waits SPACING_MS, a third twice that', () => {
		const now = later();
		expect([spacingFor('w1', ['k'], now), spacingFor('w1', ['k'], now), spacingFor('w1', ['k'], now)]).toEqual([0, SPACING_MS, 2 * SPACING_MS]);
	});

	test('a key started SPACING_MS ago or longer starts at once; sooner, it waits the rest', () => {
		const now = later();
		spacingFor('w1', ['k'], now);
		expect(spacingFor('w1', ['k'], now + 500)).toBe(SPACING_MS - 500);
		expect(spacingFor('w1', ['k'], now + 500 + 2 * SPACING_MS)).toBe(0);
	});

	test('another key, or the same key in another workflow, starts at once', () => {
		const now = later();
		spacingFor('w1', ['k'], now);
		expect([spacingFor('w1', ['other'], now), spacingFor('w2', ['k'], now)]).toEqual([0, 0]);
	});

	test('items of several keys wait for the latest of them', () => {
		const now = later();
		spacingFor('w1', ['a'], now);
		spacingFor('w1', ['b'], now + 1000);
		expect(spacingFor('w1', ['a', 'b', 'c'], now + 1000)).toBe(SPACING_MS);
		// Each of the three is now due at that later start.
		expect(spacingFor('w1', ['c'], now + 1000)).toBe(2 * SPACING_MS);
	});
});
