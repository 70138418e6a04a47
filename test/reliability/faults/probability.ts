/** The chance the suite accepts for a check to fail on a correct node: a scenario is designed to stay below it. */
export const ACCEPTED_CHANCE = 1e-6;

/**
 * The chance that at least one of `chains` requests fails for good, when each attempt is struck with
 * probability `p` independently, the node makes 1 + `maxRetries` attempts, and up to `queued` of them may be
 * struck for certain (faults queued for the request's record): 1 − (1 − p^(1 + maxRetries − queued))^chains.
 */
export function chanceSomeRequestFails(p: number, maxRetries: number, queued: number, chains: number): number {
	const freeAttempts = 1 + maxRetries - queued;
	if (freeAttempts <= 0) return chains > 0 ? 1 : 0;
	const oneFails = p ** freeAttempts;
	// -expm1(n·log1p(-x)) keeps precision where 1 − (1 − x)^n would round to 0.
	return oneFails >= 1 ? 1 : -Math.expm1(chains * Math.log1p(-oneFails));
}

/** P(X < k) for X ~ Binomial(n, p): the chance that a fault drawn n times at rate p strikes fewer than k times. */
export function chanceFewerThan(k: number, n: number, p: number): number {
	if (k <= 0) return 0;
	if (p <= 0) return 1;
	if (p >= 1) return k > n ? 1 : 0;
	let term = (1 - p) ** n;
	let sum = 0;
	for (let i = 0; i < Math.min(k, n + 1); i++) {
		sum += term;
		term *= ((n - i) / (i + 1)) * (p / (1 - p));
	}
	return Math.min(1, sum);
}

/** A chance as people read it: 2.0e-7, or 0 and 1 as they are. */
export const shownChance = (chance: number): string => (chance === 0 || chance === 1 ? String(chance) : chance.toExponential(1));
