import type { Random } from '../../../sandbox/seed/random';
import type { Company } from './tallyPolling';

/** The company value the Field Becomes a Value workflow waits for; no seeded contact has it. */
export const WATCHED_VALUE = 'Polled Holdings';

const COMPANIES: Company[] = ['Northwind', 'Contoso', 'Initech', 'Globex', 'Umbrella', 'Hooli', null];

/** The polling scenario's settings: what the ERP holds, how it misbehaves, what changes, for how long. */
export const POLLING_PLAN = {
	id: 'polling-contacts-under-faults',
	contacts: 300,
	/** Seeded random faults on every API request while the changes are made (the trigger reads with GET only). */
	faults: { errorRate: 0.2, dropRate: 0.1 },
	/** The trigger's Options › Max Retries: low, so that some polls fail for good. */
	maxRetries: 1,
	/** How long the changes are spread over, with the faults on: about six polls of each workflow. */
	faultyPhaseMs: 60_000,
	/** Episodes: one contact's changes, made one right after the other (so usually between the same two polls). */
	episodes: {
		create: 55,
		createThenUpdate: 15,
		createUpdateDelete: 4,
		createThenDelete: 4,
		createWithValue: 6,
		update: 70,
		updateTwice: 20,
		updateAndBack: 8,
		updateToValue: 12,
		delete: 20,
	},
} as const;

export type EpisodeKind = keyof typeof POLLING_PLAN.episodes;

/** The episodes in a random order drawn from the run's seed. */
export function episodeOrder(random: Random): EpisodeKind[] {
	const all = (Object.entries(POLLING_PLAN.episodes) as Array<[EpisodeKind, number]>).flatMap(([kind, n]) => Array<EpisodeKind>(n).fill(kind));
	for (let i = all.length - 1; i > 0; i--) {
		const j = random.int(0, i);
		[all[i], all[j]] = [all[j], all[i]];
	}
	return all;
}

/** A company other than `current` (and never the watched value). */
export function otherCompany(random: Random, current: Company): Company {
	return random.pick(COMPANIES.filter((company) => company !== current));
}
