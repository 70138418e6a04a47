import { peakInFlight } from '../../../bench/inFlight';

describe('bench: requests in flight at once, from the sandbox log', () => {
	test('requests that follow each other after a full answer time never overlap', () => {
		expect(peakInFlight([0, 100, 200, 300], 100)).toBe(1);
	});

	test('a batch that arrives together is in flight together', () => {
		expect(peakInFlight([0, 1, 2, 3, 4, 150, 151], 100)).toBe(5);
	});

	test('requests still answering when later ones arrive count with them, in any order', () => {
		expect(peakInFlight([90, 0, 50, 140, 30], 100)).toBe(4);
	});

	test('no requests, none at once', () => {
		expect(peakInFlight([], 30)).toBe(0);
	});
});
