import type { Contact } from '../../sandbox/types';
import type { RequestLogEntry } from '../../sandbox/requestLog';
import { looksLikeCrash } from '../support/crash';
import { pairedIndex, type OutputItem } from '../support/executions';

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
	/** Creates only: e-mails the sandbox received more than one (non-429) POST for, i.e. a create sent again. */
	resent: number;
	/** Each distinct error (message — description) and how many items had it. */
	errorMessages: Record<string, number>;
}

const MAYBE_DONE = /may have done it anyway/;

function clearError(json: Record<string, unknown>, committedCreate: boolean): boolean {
	const { error, description } = json;
	if (typeof error !== 'string' || typeof description !== 'string' || error === '' || description === '') return false;
	if (looksLikeCrash(`${error} ${description}`)) return false;
	return !committedCreate || MAYBE_DONE.test(description);
}

/** E-mails POSTed more than once, not counting answers of 429 (refused before anything happened). */
function resentCreates(requests: RequestLogEntry[]): number {
	const posts = new Map<string, number>();
	for (const r of requests) {
		if (r.method !== 'POST' || r.status === 429) continue;
		const email = (r.body as { email?: string } | null)?.email ?? '';
		posts.set(email, (posts.get(email) ?? 0) + 1);
	}
	return [...posts.values()].filter((n) => n > 1).length;
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

/**
 * Counts a batch's outcome against the sandbox's own records: `before` as they were when the run started,
 * `after` once every request of the run has been processed.
 */
export function tally(inputs: BatchInput[], items: OutputItem[], before: Contact[], after: Contact[], requests: RequestLogEntry[]): Tally {
	const byInput: OutputItem[][] = inputs.map(() => []);
	let strays = 0;
	for (const item of items) {
		const index = pairedIndex(item);
		if (index === undefined || index < 0 || index >= inputs.length) strays++;
		else byInput[index].push(item);
	}
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
		}
	});
	const targeted = new Set(inputs.map((input) => ('id' in input ? input.id : undefined)));
	t.collateral = before.filter((c) => !targeted.has(c.id) && JSON.stringify(stored.get(c.id)) !== JSON.stringify(c)).length;
	const creates = inputs.filter((input) => input.kind === 'create');
	if (creates.length > 0) {
		for (const { email } of creates) t.duplicated += Math.max(0, (withEmail.get(email) ?? 0) - 1);
		t.resent = resentCreates(requests);
	} else {
		t.duplicated = Math.max(0, after.length - before.length);
	}
	return t;
}
