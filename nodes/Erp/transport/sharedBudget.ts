import { createHash } from 'crypto';

import type { Clock } from './flowControl';
import { BackOffGate, InFlightLimit, RateWindow, systemClock, WindowEnd } from './flowControl';
import { Pacer } from './pacing';

/** Requests on the wire at once to one ERP from the whole process: the node's highest Concurrency, so one run alone is never held back. */
export const SHARED_IN_FLIGHT = 50;
/** An ERP's budget nothing has used for this long, with nothing running or waiting on it, is dropped. */
export const IDLE_MS = 60_000;

/** What every run in this process that talks to one ERP (Base URL and token) shares. */
export class ErpBudget {
	readonly gate: BackOffGate;

	readonly rateWindow = new RateWindow();

	readonly windowEnd = new WindowEnd();

	readonly inFlight = new InFlightLimit(SHARED_IN_FLIGHT);

	readonly pacer: Pacer;

	lastUsed: number;

	constructor(private readonly clock: Clock) {
		this.gate = new BackOffGate(clock);
		this.pacer = new Pacer(clock);
		this.lastUsed = clock.now();
	}

	/** Nothing runs, waits or is held back, and nothing has for IDLE_MS. */
	idle(): boolean {
		const quiet = this.clock.now() - this.lastUsed >= IDLE_MS;
		return quiet && this.inFlight.idle() && this.rateWindow.idle() && !this.gate.holding();
	}
}

/** The key of an ERP: its Base URL and a hash of the token, so no token is held in clear as a key. */
export function budgetKey(baseUrl: string, token: unknown): string {
	const hash = createHash('sha256').update(typeof token === 'string' ? token : '').digest('hex');
	return `${baseUrl} ${hash}`;
}

/** One budget per ERP; idle ones are dropped at the next lookup, so memory holds only the ERPs in use. */
export class BudgetRegistry {
	private readonly budgets = new Map<string, ErpBudget>();

	constructor(private readonly clock: Clock) {}

	/** The ERP's budget, made when none is held; every lookup counts as use. */
	budgetFor(key: string): ErpBudget {
		for (const [other, budget] of this.budgets) if (other !== key && budget.idle()) this.budgets.delete(other);
		let budget = this.budgets.get(key);
		if (!budget) {
			budget = new ErpBudget(this.clock);
			this.budgets.set(key, budget);
		}
		budget.lastUsed = this.clock.now();
		return budget;
	}

	/** How many ERPs have a budget held. */
	size(): number {
		return this.budgets.size;
	}

	/** Forgets every ERP: a test's fresh start. */
	clear(): void {
		this.budgets.clear();
	}
}

/**
 * One module instance serves all three nodes: n8n loads them with its own `require` (n8n-core's
 * loadClassInIsolation), so they share Node's module cache; only a package reload, which unloads the package's
 * files, starts a new registry.
 */
const PROCESS_BUDGETS = new BudgetRegistry(systemClock());

/** The registry every run in this process shares. */
export function processBudgets(): BudgetRegistry {
	return PROCESS_BUDGETS;
}
