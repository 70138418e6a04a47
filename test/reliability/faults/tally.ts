import type { RequestLogEntry } from '../../../sandbox/requestLog';
import { errorMessages, looksLikeCrash } from '../support/batch';
import { type OutputItem, pairedIndex } from '../../../tooling/host/executions';
import { fieldOf, type StoredRecord, type Subject, SUBJECTS } from './scenarios';

/** What a batch scenario's input items ask: create a record with a key, change a field of one, read one or delete one. */
export type BatchInput =
	| { kind: 'create'; first: string; key: string }
	| { kind: 'update'; id: number; value: string }
	| { kind: 'read'; id: number }
	| { kind: 'delete'; id: number };

/** How the node's error says that a create answered unclearly may have been saved all the same. */
export const MAYBE_DONE = /may have done it anyway/;

function clearError(json: Record<string, unknown>, committedCreate: boolean): boolean {
	const { error, description } = json;
	if (typeof error !== 'string' || typeof description !== 'string' || error === '' || description === '') return false;
	if (looksLikeCrash(`${error} ${description}`)) return false;
	return !committedCreate || MAYBE_DONE.test(description);
}

const keyOf = (r: RequestLogEntry, key: string) => String((r.body as Record<string, unknown> | null)?.[key] ?? '');
export const emailOf = (r: RequestLogEntry) => keyOf(r, 'email');

/** The ERP processed the request and saved the record (a fault after the commit only replaced the answer). */
export const committed = (r: RequestLogEntry) => {
	const status = r.fault?.afterCommit ? r.fault.appStatus : r.status;
	return status !== undefined && status !== null && status >= 200 && status < 300;
};

const byArrival = (requests: RequestLogEntry[]) => [...requests].sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.seq - b.seq);

/**
 * Creates sent again when they should not have been. A 429 means the ERP did nothing, so a create refused
 * with 429 may be sent again. After any other answer: without a key (`keyed` false) never; with one, only
 * when a lookup (a GET of the list with the key in its query) came in between and the earlier attempt had
 * indeed written nothing.
 */
function repeatedCreates(requests: RequestLogEntry[], keyed: boolean, subject: Subject): number {
	const lastPost = new Map<string, RequestLogEntry>();
	const lookedUp = new Set<string>();
	let repeated = 0;
	for (const r of byArrival(requests)) {
		if (r.method === 'GET' && r.path === subject.list && r.query[subject.key]) lookedUp.add(r.query[subject.key]);
		if (r.method !== 'POST') continue;
		const key = keyOf(r, subject.key);
		const earlier = lastPost.get(key);
		if (earlier && earlier.status !== 429 && (!keyed || !lookedUp.has(key) || committed(earlier))) repeated++;
		lastPost.set(key, r);
		lookedUp.delete(key);
	}
	return repeated;
}

/** POSTs of a key the ERP held when they arrived: in `heldBefore`, or saved by an earlier POST of it in the run. */
export function postsOfHeldKeys(requests: RequestLogEntry[], key: (r: RequestLogEntry) => string, heldBefore = new Set<string>()): number {
	const held = new Set(heldBefore);
	let count = 0;
	for (const post of byArrival(requests).filter((r) => r.method === 'POST')) {
		if (held.has(key(post))) count++;
		if (committed(post)) held.add(key(post));
	}
	return count;
}

/** Whether the ERP's records show the item's request as done (for a failed create: whether it was written anyway). */
function carriedOut(
	input: BatchInput,
	json: Record<string, unknown>,
	failed: boolean,
	stored: Map<number, StoredRecord>,
	withKey: Map<unknown, number>,
	subject: Subject,
): boolean {
	switch (input.kind) {
		case 'create':
			return failed ? (withKey.get(input.key) ?? 0) > 0 : fieldOf(stored.get(json.id as number), subject.key) === input.key;
		case 'update':
			return fieldOf(stored.get(input.id), subject.changed) === input.value;
		case 'read':
			return json.id === input.id && json[subject.key] === fieldOf(stored.get(input.id), subject.key);
		case 'delete':
			return !stored.has(input.id);
	}
}

/** The output items of each input item (by their pairing), and how many are paired to no single input item. */
export function pairToInputs(items: OutputItem[], inputs: number): { byInput: OutputItem[][]; strays: number } {
	const byInput: OutputItem[][] = Array.from({ length: inputs }, () => []);
	let strays = 0;
	for (const item of items) {
		const index = pairedIndex(item);
		if (index === undefined || index < 0 || index >= inputs) strays++;
		else byInput[index].push(item);
	}
	return { byInput, strays };
}

/**
 * Counts a batch's outcome against the sandbox's own records: `before` as they were when the run started,
 * `after` once every request of the run has been processed.
 */
export function tally(
	inputs: BatchInput[],
	items: OutputItem[],
	before: StoredRecord[],
	after: StoredRecord[],
	requests: RequestLogEntry[],
	keyed = false,
	subject: Subject = SUBJECTS.contact,
) {
	const { byInput, strays } = pairToInputs(items, inputs.length);
	const stored = new Map(after.map((record) => [record.id, record]));
	const withKey = new Map<unknown, number>();
	for (const record of after) withKey.set(fieldOf(record, subject.key), (withKey.get(fieldOf(record, subject.key)) ?? 0) + 1);

	// unpaired: input items without exactly one output item, plus output items paired to no input item; lost: items
	// reported OK that the ERP's records do not bear out; duplicated: records written more than once (creates: records
	// sharing an input's key, and where the ERP refuses a second record with a key, creates sent again after it had
	// saved one; otherwise new records); collateral: records no input item was about that changed or went;
	// committedDespiteError: error items whose write the ERP did commit; unclearErrors: without a message and a
	// description, with signs of a crash, or a committed create's that does not say so; unresolvedCreates: error items
	// that say the ERP may have done it; resent: creates sent again without proof the earlier attempt wrote nothing.
	const t = {
		itemsAttempted: inputs.length,
		outputItems: items.length,
		unpaired: strays + byInput.filter((outputs) => outputs.length !== 1).length,
		succeeded: 0,
		errorItems: 0,
		lost: 0,
		duplicated: 0,
		collateral: 0,
		committedDespiteError: 0,
		unclearErrors: 0,
		unresolvedCreates: 0,
		resent: 0,
	};
	const errors: Array<Record<string, unknown>> = [];
	inputs.forEach((input, i) => {
		for (const { json } of byInput[i]) {
			const failed = 'error' in json;
			const done = carriedOut(input, json, failed, stored, withKey, subject);
			if (!failed) {
				t.succeeded++;
				if (!done) t.lost++;
				continue;
			}
			t.errorItems++;
			errors.push(json);
			if (done && input.kind !== 'read') t.committedDespiteError++;
			if (!clearError(json, done && input.kind === 'create')) t.unclearErrors++;
			if (input.kind === 'create' && MAYBE_DONE.test(String(json.description))) t.unresolvedCreates++;
		}
	});
	const targeted = new Set(inputs.map((input) => ('id' in input ? input.id : undefined)));
	t.collateral = before.filter((c) => !targeted.has(c.id) && JSON.stringify(stored.get(c.id)) !== JSON.stringify(c)).length;
	const creates = inputs.filter((input) => input.kind === 'create');
	if (creates.length > 0) {
		for (const { key } of creates) t.duplicated += Math.max(0, (withKey.get(key) ?? 0) - 1);
		// Unique keys: the ERP refused a create sent again after it had saved one, which shows in the log only.
		if (subject.uniqueKey) t.duplicated += postsOfHeldKeys(requests, (r) => keyOf(r, subject.key));
		t.resent = repeatedCreates(requests, keyed, subject);
	} else {
		t.duplicated = Math.max(0, after.length - before.length);
	}
	return { ...t, errorMessages: errorMessages(errors) };
}

export type Tally = ReturnType<typeof tally>;
