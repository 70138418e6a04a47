import { createHash, randomInt } from 'node:crypto';

import { Random } from '../../../sandbox/seed/random';

/** Set it to replay a run's random faults: `RELIABILITY_SEED=<n> npm run test:reliability`. */
export const SEED_ENV = 'RELIABILITY_SEED';

const MAX_SEED = 2 ** 32 - 1;

/** The seed of this run's random faults: RELIABILITY_SEED when given, else a new one. */
export function runSeed(): number {
	const given = process.env[SEED_ENV]?.trim();
	if (!given) return randomInt(MAX_SEED + 1);
	const seed = Number(given);
	if (!/^\d+$/.test(given) || seed > MAX_SEED) throw new Error(`${SEED_ENV} must be a whole number from 0 to ${MAX_SEED}, not "${given}"`);
	return seed;
}

/** A random stream of its own for each scenario: the same run seed gives each scenario the same draws. */
export function scenarioRandom(seed: number, scenarioId: string): Random {
	return new Random(createHash('sha256').update(`${seed} ${scenarioId}`).digest().readUInt32BE(0));
}
