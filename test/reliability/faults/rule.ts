import { countBy } from '../support/batch';
import { ACCEPTED_CHANCE, chanceFewerThan, chanceSomeRequestFails, endedStruck, type RequestChain, shownChance, type StruckTest } from './chains';
import type { FaultScenario } from './scenarios';

/**
 * The suite's rule, from the API document's retry semantics (README, "Retries"): a 429 means the ERP did
 * nothing, so the node sends any request again; after an unclear failure (5xx, HTML page, dropped connection,
 * timeout) it sends GET, PUT and DELETE again but never a create, which the ERP may have saved. So every item
 * must succeed unless a fault can leave a create unclear (and the node has no key to look it up by), or the
 * ERP rejects requests outright.
 */
type Strike = 'rate limited' | 'unclear' | 'rejected';

const strikeOfStatus = (status: number): Strike => (status === 429 ? 'rate limited' : status >= 500 ? 'unclear' : 'rejected');

const timesOut = (delayMs: number | undefined, timeout: number | undefined) => timeout !== undefined && (delayMs ?? 0) >= timeout;

function strikesOf({ faults: f, recordFaults, options }: FaultScenario): Set<Strike> {
	const strikes = new Set<Strike>();
	if (f.rateLimit) strikes.add('rate limited');
	if (f.errorRate) strikes.add(strikeOfStatus(f.errorStatus ?? 500));
	if (f.dropRate || f.nonJsonRate || timesOut(f.latencyMs, options.timeout)) strikes.add('unclear');
	const queued = recordFaults?.fault;
	if (queued?.kind === 'rateLimit') strikes.add('rate limited');
	else if (queued?.kind === 'status') strikes.add(strikeOfStatus(queued.status ?? 500));
	else if (queued?.kind === 'drop' || queued?.kind === 'html' || (queued?.kind === 'latency' && timesOut(queued.delayMs, options.timeout))) strikes.add('unclear');
	return strikes;
}

/** Whether an attempt was struck: faulted or refused with 429 by the sandbox, or delayed past the node's timeout. */
export function struckTest(s: FaultScenario): StruckTest {
	const everyAnswerLate = timesOut(s.faults.latencyMs, s.options.timeout);
	const queued = s.recordFaults?.fault;
	const queuedDelayStrikes = queued?.kind === 'latency' && timesOut(queued.delayMs, s.options.timeout);
	return (r) => everyAnswerLate || r.status === 429 || (r.fault !== undefined && (r.fault.kind !== 'latency' || queuedDelayStrikes));
}

export interface ScenarioRule {
	/** Every item must succeed: each fault the scenario can strike is one the node gets past. */
	everyItemSucceeds: boolean;
	why: string;
}

export function ruleOf(s: FaultScenario): ScenarioRule {
	const strikes = strikesOf(s);
	if (strikes.has('rejected')) {
		return { everyItemSucceeds: false, why: 'the ERP rejects requests with a 4xx other than 429: no client sends them again' };
	}
	if (strikes.has('unclear') && s.kind === 'create' && !s.keyed) {
		return {
			everyItemSucceeds: false,
			why:
				'a create struck by an unclear failure may have been saved: the node never sends it again (that could write it twice), ' +
				'so each such item must end as an error that says the ERP may have done it, and every other item must succeed',
		};
	}
	if (strikes.has('unclear') && s.kind === 'create' && randomRate(s) >= 1) {
		return {
			everyItemSucceeds: false,
			why:
				'a create that failed unclearly is looked up by its key, but every request fails here, the lookup too: nothing settles it, ' +
				'so each item must end as an error that says the ERP may have done it',
		};
	}
	const reasons = [
		...(strikes.has('rate limited') ? ['a 429 is sent again whatever the method'] : []),
		...(strikes.has('unclear') ? ['after an unclear failure GET, PUT and DELETE are sent again'] : []),
		...(s.keyed && strikes.has('unclear') ? ['a create that failed unclearly is settled by looking its key up'] : []),
	];
	return { everyItemSucceeds: true, why: `every fault here is one the node gets past (${reasons.join('; ')}): every item must succeed` };
}

/** Requests whose last attempt was struck and that nothing settles afterwards: each must be exactly one error item. */
export const unfinishedRequests = (s: FaultScenario, chains: RequestChain[], struck: StruckTest) =>
	endedStruck(chains, struck).filter((c) => !(s.keyed && c.method === 'POST')).length;

/** The chance that one attempt is struck by the random faults (drawn in this order by the sandbox). */
function randomRate({ faults: f, options }: FaultScenario): number {
	if (timesOut(f.latencyMs, options.timeout)) return 1;
	const p = 1 - (1 - (f.dropRate ?? 0)) * (1 - (f.nonJsonRate ?? 0)) * (1 - (f.errorRate ?? 0));
	// 1 − (1 − 0.1) is 0.09999999999999998 in floating point.
	return Number(p.toPrecision(12));
}

const mostQueued = (s: FaultScenario) => Math.max(0, ...(s.recordFaults?.groups.map((g) => g.times) ?? []));

/**
 * Why Max Retries suffices (or not) for every item to succeed, with this run's distinct requests per method: the
 * chance that some request fails all its attempts (null for a rate-limit window, which is not random), from the chance
 * that one attempt is struck at random and the most strikes queued for one record (certain, not random).
 */
export function retryArithmetic(s: FaultScenario, chains: RequestChain[]): { perAttempt: number; maxRetries: number | null; queuedPerRequest: number; requests: Record<string, number>; chance: number | null; text: string } {
	// Distinct requests per method: each is retried on its own.
	const requests = countBy(chains, (c) => c.method);
	const n = chains.length;
	const p = randomRate(s);
	const q = mostQueued(s);
	const r = s.options.maxRetries;
	const base = { perAttempt: p, maxRetries: r ?? null, queuedPerRequest: q, requests };
	if (r === undefined) return { ...base, chance: 1, text: 'Max Retries is not set: a scenario that relies on retries must name it' };
	const counted = `${n} requests of this run (${Object.entries(requests).map(([method, count]) => `${count} ${method}`).join(', ')})`;
	if (s.faults.rateLimit && p === 0 && q === 0) {
		const { limit } = s.faults.rateLimit;
		return {
			...base,
			chance: null,
			text:
				`not a matter of chance: a refused request waits out the window (Retry-After) and is then sent with at most ` +
				`${s.options.concurrency - 1} other requests in flight into a window of ${limit}; Max Retries ${r} allows ${r} refusals of one request`,
		};
	}
	const chance = chanceSomeRequestFails(p, r, q, n);
	const free = r + 1 - q;
	const queued = q > 0 ? `, up to ${q} strikes queued for one record` : '';
	const verdict = `${chance < ACCEPTED_CHANCE ? '<' : '≥'} ${shownChance(ACCEPTED_CHANCE)}`;
	const text =
		p === 0
			? `no random faults${queued}; Max Retries ${r} gives every request ${free} attempts beyond its queued strikes: chance 0 over the ${counted}`
			: `p = ${p} per attempt${queued}, Max Retries ${r}: a request fails for good when all ${free} attempts left to chance are struck, ` +
				`p^${free} = ${shownChance(p ** free)}; over the ${counted}: 1 − (1 − p^${free})^${n} = ${shownChance(chance)} ${verdict}`;
	return { ...base, chance, text };
}

export type RetryArithmetic = ReturnType<typeof retryArithmetic>;

export interface StrikeMinimum {
	count: number;
	why: string;
	/** The chance that a correct run strikes fewer times (random faults only). */
	chanceFewer: number | null;
}

/** How often the fault must strike for the scenario to have tested something. */
export function strikeMinimum(s: FaultScenario, queued: number): StrikeMinimum {
	const p = randomRate(s);
	if (p > 0) {
		const expected = s.items * p;
		const count = Math.max(1, Math.floor(expected / 2));
		const chanceFewer = chanceFewerThan(count, s.items, p);
		return { count, chanceFewer, why: `half the ${expected} strikes expected on the first attempts of ${s.items} items at p = ${p} (fewer by chance: ${shownChance(chanceFewer)})` };
	}
	if (queued > 0) return { count: queued, chanceFewer: null, why: 'every fault queued for single records' };
	return { count: 1, chanceFewer: null, why: 'a scenario whose fault never strikes proves nothing' };
}
