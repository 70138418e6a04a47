import { sleep } from 'n8n-workflow';

/** Time and chance, injectable so the retry rules can be tested without waiting. */
export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
	random(): number;
}

/** Real time; a cancelled execution (the signal) ends any back-off wait at once. */
export function systemClock(signal?: AbortSignal): Clock {
	return {
		now: () => Date.now(),
		sleep: async (ms) => await sleep(ms, signal),
		random: () => Math.random(),
	};
}
