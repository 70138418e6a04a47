import { createHash, randomInt } from 'node:crypto';

import type { Session } from '../../../tooling/host/session';
import type { Credential } from '../../../tooling/host/types';
import type { E2eContext } from '../../../tooling/host/context';
import { Random } from '../../../sandbox/seed/random';

/** The e2e context (so tooling/host works as it is) plus the secrets to search for and n8n's log; every secret is random and distinctive, so a hit is a real leak. */
export interface ReliabilityContext extends E2eContext {
	credentials: E2eContext['credentials'] & {
		/** The sandbox with its read-only token. */
		readOnly: Credential;
		/** ERP API with a Webhook Signing Secret: the trigger's shared secret / HMAC key. */
		webhook: Credential;
	};
	webhookSecret: string;
	n8nLogFile: string;
	/** Seeds the sandbox's random faults and the picks of faulted records: the same seed replays them. */
	faultSeed: number;
}

/** The suite's connection to the n8n and sandbox globalSetup started (works with every tooling/host helper). */
export type ReliabilitySession = Session<ReliabilityContext>;

/** Every secret the suite hands to n8n; none may show in any output, error or log. */
export const secretsOf = (ctx: ReliabilityContext): Record<string, string> => ({
	apiToken: ctx.token,
	readOnlyToken: ctx.readOnlyToken,
	wrongToken: ctx.wrongToken,
	webhookSecret: ctx.webhookSecret,
});

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

/** `items` in an order drawn from `random` (shuffled in place, and returned). */
export function shuffled<T>(items: T[], random: Random): T[] {
	for (let i = items.length - 1; i > 0; i--) {
		const j = random.int(0, i);
		[items[i], items[j]] = [items[j], items[i]];
	}
	return items;
}
