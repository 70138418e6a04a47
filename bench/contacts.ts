import type { SandboxAdmin } from '../sandbox/adminClient';
import type { Api, ContactRow } from './rawTasks';

let batches = 0;

/** `count` contacts whose e-mails carry a tag of their own, so that the sandbox can tell them apart. */
export function contactRows(label: string, count: number): { tag: string; rows: ContactRow[] } {
	const tag = `${label}-${++batches}-${Date.now()}`;
	const rows = Array.from({ length: count }, (_, i) => ({
		first_name: `Bench${i}`,
		last_name: 'Load',
		email: `${tag}-${i}@bench.example`,
		company: 'Bench Co',
	}));
	return { tag, rows };
}

export interface Tally {
	/** Contacts with the tag in the sandbox. */
	records: number;
	/** Items of the batch the sandbox holds no contact for. */
	missing: number;
	/** Contacts beyond the first with the same e-mail: items written twice. */
	duplicates: number;
}

/** What the sandbox holds of a batch: its own state, not what the workflow reported. */
export async function tally(sandbox: SandboxAdmin, tag: string, count: number): Promise<Tally> {
	const mine = (await sandbox.records('contacts')).filter((contact) => contact.email?.startsWith(`${tag}-`));
	const distinct = new Set(mine.map((contact) => contact.email)).size;
	return { records: mine.length, missing: count - distinct, duplicates: mine.length - distinct };
}

// The sandbox seeds at most this many records a call (its guard against a typo); more take several calls.
const SEED_CALL_MAX = 200_000;

/** Seeds contacts until the sandbox holds `to` of them (from `from`), each call with its own PRNG seed. */
export async function seedContactsUpTo(sandbox: SandboxAdmin, from: number, to: number): Promise<void> {
	for (let held = from; held < to; held += SEED_CALL_MAX) {
		await sandbox.seed({ contacts: Math.min(SEED_CALL_MAX, to - held), seed: 1 + held / SEED_CALL_MAX });
	}
}

/** Creates one contact through the API (as a user would have it already) and answers its id. */
export async function createContact(api: Api, row: ContactRow): Promise<number> {
	const response = await fetch(`${api.baseUrl}/contacts`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${api.token}`, 'Content-Type': 'application/json' },
		body: JSON.stringify(row),
	});
	if (response.status !== 201) throw new Error(`creating a contact answered ${response.status}: ${await response.text()}`);
	return ((await response.json()) as { data: { id: number } }).data.id;
}
