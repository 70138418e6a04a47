import type { Contact } from '../../../sandbox/types';
import type { RequestLogEntry } from '../../../sandbox/requestLog';
import { looksLikeCrash } from '../support/crash';
import { pairedIndex, type OutputItem } from '../../host/executions';

/** What a batch scenario's input items ask: create a contact, change one's company, read one or delete one. */
export type BatchInput =
	| { kind: 'create'; first: string; email: string }
	| { kind: 'update'; id: number; company: string }
	| { kind: 'read'; id: number }
	| { kind: 'delete'; id: number };

export interface Tally {
	itemsAttempted: number;
	outputItems: number;
	/** Input items without exactly one output item, plus output items not paired to one input item. */
	unpaired: number;
	succeeded: number;
	errorItems: number;
	/** Items reported OK whose write (or read) the ERP's own state does not bear out. */
	lost: number;
	/** Records written more than once (creates: contacts sharing an input's e-mail; otherwise: new records). */
	duplicated: number;
	/** Records no input item was about that changed or disappeared. */
	collateral: number;
	/** Error items whose write the ERP did commit (the ambiguous case: the answer was lost after the commit). */
	committedDespiteError: number;
	/** Error items without a message and a description, or with signs of a crash; for a committed create, one that does not say so. */
	unclearErrors: number;
	/** Creates only: error items that say the ERP may have done it (a create answered unclearly, left to the user). */
	unresolvedCreates: number;
	/** Creates only: creates sent again without proof that the earlier attempt wrote nothing (see repeatedCreates). */
	resent: number;
	/** Each distinct error (message — description) and how many items had it. */
	errorMessages: Record<string, number>;
}

/** How the node's error says that a create answered unclearly may have been saved all the same. */
export const MAYBE_DONE = /may have done it anyway/;

function clearError(json: Record<string, unknown>, committedCreate: boolean): boolean {
	const { error, description } = json;
	if (typeof error !== 'string' || typeof description !== 'string' || error === '' || description === '') return false;
	if (looksLikeCrash(`${error} ${description}`)) return false;
	return !committedCreate || MAYBE_DONE.test(description);
}

export const emailOf = (r: RequestLogEntry) => String((r.body as { email?: unknown } | null)?.email ?? '');

/** The ERP processed the request and saved the record (a fault after the commit only replaced the answer). */
export const committed = (r: RequestLogEntry) => {
	const status = r.fault?.afterCommit ? r.fault.appStatus : r.status;
	return status !== undefined && status !== null && status >= 200 && status < 300;
};

/**
 * Creates sent again when they should not have been. A 429 means the ERP did nothing, so a create refused
 * with 429 may be sent again. After any other answer: without a key (`keyed` false) never; with one, only
 * when a lookup (a GET of the list with the e-mail in its query) came in between and the earlier attempt had
 * indeed written nothing.
 */
function repeatedCreates(requests: RequestLogEntry[], keyed: boolean): number {
	const byArrival = [...requests].sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.seq - b.seq);
	const lastPost = new Map<string, RequestLogEntry>();
	const lookedUp = new Set<string>();
	let repeated = 0;
	for (const r of byArrival) {
		if (r.method === 'GET' && r.path === '/contacts' && r.query.email) lookedUp.add(r.query.email);
		if (r.method !== 'POST') continue;
		const email = emailOf(r);
		const earlier = lastPost.get(email);
		if (earlier && earlier.status !== 429 && (!keyed || !lookedUp.has(email) || committed(earlier))) repeated++;
		lastPost.set(email, r);
		lookedUp.delete(email);
	}
	return repeated;
}

/** Whether the ERP's records show the item's request as done (for a failed create: whether it was written anyway). */
function carriedOut(
	input: BatchInput,
	json: Record<string, unknown>,
	failed: boolean,
	stored: Map<number, Contact>,
	withEmail: Map<string | null, number>,
): boolean {
	switch (input.kind) {
		case 'create':
			return failed ? (withEmail.get(input.email) ?? 0) > 0 : stored.get(json.id as number)?.email === input.email;
		case 'update':
			return stored.get(input.id)?.company === input.company;
		case 'read':
			return json.id === input.id && json.email === stored.get(input.id)?.email;
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
	before: Contact[],
	after: Contact[],
	requests: RequestLogEntry[],
	keyed = false,
): Tally {
	const { byInput, strays } = pairToInputs(items, inputs.length);
	const stored = new Map(after.map((contact) => [contact.id, contact]));
	const withEmail = new Map<string | null, number>();
	for (const contact of after) withEmail.set(contact.email, (withEmail.get(contact.email) ?? 0) + 1);

	const t: Tally = {
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
		errorMessages: {},
	};
	inputs.forEach((input, i) => {
		for (const { json } of byInput[i]) {
			const failed = 'error' in json;
			const done = carriedOut(input, json, failed, stored, withEmail);
			if (!failed) {
				t.succeeded++;
				if (!done) t.lost++;
				continue;
			}
			t.errorItems++;
			const shown = `${String(json.error)} — ${String(json.description)}`;
			t.errorMessages[shown] = (t.errorMessages[shown] ?? 0) + 1;
			if (done && input.kind !== 'read') t.committedDespiteError++;
			if (!clearError(json, done && input.kind === 'create')) t.unclearErrors++;
			if (input.kind === 'create' && MAYBE_DONE.test(String(json.description))) t.unresolvedCreates++;
		}
	});
	const targeted = new Set(inputs.map((input) => ('id' in input ? input.id : undefined)));
	t.collateral = before.filter((c) => !targeted.has(c.id) && JSON.stringify(stored.get(c.id)) !== JSON.stringify(c)).length;
	const creates = inputs.filter((input) => input.kind === 'create');
	if (creates.length > 0) {
		for (const { email } of creates) t.duplicated += Math.max(0, (withEmail.get(email) ?? 0) - 1);
		t.resent = repeatedCreates(requests, keyed);
	} else {
		t.duplicated = Math.max(0, after.length - before.length);
	}
	return t;
}
