import type { Random } from '../../../sandbox/seed/random';
import type { Company } from './tallyPolling';
import { sleep } from '../../../tooling/host/processes';
import { writeThroughFaults } from '../support/writeThroughFaults';
import { shuffled, type ReliabilitySession } from '../setup/context';

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
	return shuffled((Object.entries(POLLING_PLAN.episodes) as Array<[EpisodeKind, number]>).flatMap(([kind, n]) => Array<EpisodeKind>(n).fill(kind)), random);
}

/** A company other than `current` (and never the watched value). */
export function otherCompany(random: Random, current: Company): Company {
	return random.pick(COMPANIES.filter((company) => company !== current));
}

/** The contacts the scenario tracks as it changes them: id → company. */
export type Live = Map<number, Company>;

export class ContactChanger {
	/** What the scenario did to the ERP, as the checks need it; writesRetried: writes the faults struck, sent again. */
	readonly log = {
		creates: 0,
		updates: 0,
		deletes: 0,
		created: new Set<number>(),
		deletedAt: new Map<number, number>(),
		tookValue: new Set<number>(),
		writesRetried: 0,
	};
	private readonly retried = () => {
		this.log.writesRetried++;
	};

	constructor(
		private readonly session: ReliabilitySession,
		private readonly random: Random,
		private readonly live: Live,
	) {}

	async create(company: Company, name = 'Polled'): Promise<number> {
		const { id } = await writeThroughFaults<{ id: number }>(this.session, 'POST', '/contacts', { first_name: name, last_name: 'Contact', company }, this.retried);
		this.live.set(id, company);
		this.log.creates++;
		this.log.created.add(id);
		if (company === WATCHED_VALUE) this.log.tookValue.add(id);
		return id;
	}

	async update(id: number, company: Company): Promise<void> {
		await writeThroughFaults(this.session, 'PUT', `/contacts/${id}`, { company }, this.retried);
		this.live.set(id, company);
		this.log.updates++;
		if (company === WATCHED_VALUE) this.log.tookValue.add(id);
	}

	async remove(id: number): Promise<void> {
		await writeThroughFaults(this.session, 'DELETE', `/contacts/${id}`, undefined, this.retried);
		this.live.delete(id);
		this.log.deletes++;
		this.log.deletedAt.set(id, Date.now());
	}

	/** A live contact; `changeable`: one not at the watched value (which, once taken, is never left). */
	private pick(changeable: boolean): number {
		const ids = [...this.live.entries()].filter(([, company]) => !changeable || company !== WATCHED_VALUE).map(([id]) => id);
		return this.random.pick(ids);
	}

	private async changeCompany(id: number): Promise<Company> {
		const before = this.live.get(id) ?? null;
		await this.update(id, otherCompany(this.random, before));
		return before;
	}

	async episode(kind: EpisodeKind): Promise<void> {
		const fresh = () => this.create(otherCompany(this.random, WATCHED_VALUE));
		const episodes: Record<EpisodeKind, () => Promise<unknown>> = {
			create: fresh,
			createThenUpdate: async () => this.changeCompany(await fresh()),
			createUpdateDelete: async () => {
				const id = await fresh();
				await this.changeCompany(id);
				await this.remove(id);
			},
			createThenDelete: async () => this.remove(await fresh()),
			createWithValue: () => this.create(WATCHED_VALUE),
			update: () => this.changeCompany(this.pick(true)),
			updateTwice: async () => {
				const id = this.pick(true);
				await this.changeCompany(id);
				await this.changeCompany(id);
			},
			updateAndBack: async () => {
				const id = this.pick(true);
				await this.update(id, await this.changeCompany(id));
			},
			updateToValue: () => this.update(this.pick(true), WATCHED_VALUE),
			delete: () => this.remove(this.pick(false)),
		};
		await episodes[kind]();
	}

	/** Every episode of the plan, in the seed's order, spread evenly over `spanMs`. */
	async runAll(spanMs: number): Promise<void> {
		const order = episodeOrder(this.random);
		const started = Date.now();
		for (const [i, kind] of order.entries()) {
			const due = started + (i * spanMs) / order.length;
			if (due > Date.now()) await sleep(due - Date.now());
			await this.episode(kind);
		}
	}
}
