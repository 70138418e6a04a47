import type { RequestLogEntry } from '../../../sandbox/requestLog';
import type { Contact } from '../../../sandbox/types';
import { committed, emailOf, MAYBE_DONE, pairToInputs, postsOfHeldKeys } from '../faults/tally';
import { countBy, errorMessages } from '../support/batch';
import type { OutputItem } from '../../../tooling/host/executions';
import { faultWords, type ImportScenario, strikesOf } from './scenarios';

/** One row of an import: the contact's fields as a sheet would have them. */
export interface ImportRow {
	first_name: string;
	last_name: string;
	email: string;
}

const isFaulted = (r: RequestLogEntry) => r.fault !== undefined && r.fault.kind !== 'latency';
const kindOf = (r: RequestLogEntry) => String(r.fault?.kind);

/**
 * Counts one run: `before` and `after` are the ERP's contacts when it started and once every request was
 * processed, `requests` the requests it made. What each count must be is in importChecks, which reads them.
 */
export function tallyImport(rows: ImportRow[], items: OutputItem[], before: Contact[], after: Contact[], requests: RequestLogEntry[]) {
	const { byInput, strays } = pairToInputs(items, rows.length);
	const heldBefore = new Set(before.map((c) => String(c.email)));
	const stored = new Map(after.map((c) => [c.id, c]));
	const withEmail = countBy(after, (c) => String(c.email));
	const posts = requests.filter((r) => r.method === 'POST');
	const postsOf = countBy(posts, emailOf);
	const faulted = posts.filter(isFaulted);
	const faultedEmails = new Set(faulted.map(emailOf));
	const rowEmails = new Set(rows.map((row) => row.email));
	const t = {
		rows: rows.length,
		newRows: rows.filter((row) => !heldBefore.has(row.email)).length,
		outputItems: items.length,
		unpaired: strays + byInput.filter((outputs) => outputs.length !== 1).length,
		succeeded: 0,
		errorItems: 0,
		created: 0,
		updated: 0,
		wrongAction: 0,
		recovered: 0,
		unresolvedCreates: 0,
		lost: 0,
		stored: rows.filter((row) => withEmail[row.email] === 1 && after.some((c) => c.email === row.email && c.first_name === row.first_name)).length,
		contactsAfter: after.length,
		duplicated: [...rowEmails].reduce((n, email) => n + Math.max(0, (withEmail[email] ?? 0) - 1), 0),
		collateral: before.filter((c) => !rowEmails.has(String(c.email)) && JSON.stringify(stored.get(c.id)) !== JSON.stringify(c)).length,
		posts: posts.length,
		postsForExistingKeys: postsOfHeldKeys(requests, emailOf, heldBefore),
		newRowsPostedOnce: rows.filter((row) => !heldBefore.has(row.email) && postsOf[row.email] === 1).length,
		// POSTs the sandbox faulted (its queued "no fault" entries aside) by kind, and of them those the ERP had saved.
		faultedPosts: Object.fromEntries(
			Object.entries(countBy(faulted, kindOf)).map(([kind, struck]) => [kind, { struck, saved: faulted.filter((r) => kindOf(r) === kind && committed(r)).length }]),
		),
		faultedOthers: requests.filter((r) => r.method !== 'POST' && isFaulted(r)).length,
		recoveredUnfaulted: 0,
		faultedUnrecovered: 0,
		requestsByMethod: countBy(requests, (r) => r.method),
	};
	const errors: Array<Record<string, unknown>> = [];
	const recoveredEmails = new Set<string>();
	rows.forEach((row, i) => {
		for (const { json } of byInput[i]) {
			if ('error' in json) {
				t.errorItems++;
				errors.push(json);
				if (MAYBE_DONE.test(String(json.description))) t.unresolvedCreates++;
				continue;
			}
			t.succeeded++;
			if (json.action === 'created') t.created++;
			if (json.action === 'updated') t.updated++;
			if (json.action !== (heldBefore.has(row.email) ? 'updated' : 'created')) t.wrongAction++;
			if (json.recovered === true) {
				t.recovered++;
				recoveredEmails.add(row.email);
			}
			const contact = stored.get(json.id as number);
			if (contact?.email !== row.email || contact.first_name !== row.first_name) t.lost++;
		}
	});
	t.recoveredUnfaulted = [...recoveredEmails].filter((email) => !faultedEmails.has(email)).length;
	t.faultedUnrecovered = [...faultedEmails].filter((email) => !recoveredEmails.has(email)).length;
	return { ...t, errorMessages: errorMessages(errors) };
}

export type ImportTally = ReturnType<typeof tallyImport>;

/** One thing a run must show, what it showed, and whether that holds: the report prints exactly these. */
export interface ImportCheck {
	must: string;
	observed: string;
	holds: boolean;
}

const check = (must: string, observed: string, holds: boolean): ImportCheck => ({ must, observed, holds });

/** The faults queued for this run's creates, with how many POSTs each must strike. */
export const faultsOfRun = (s: ImportScenario, run: number) =>
	run === 1 ? (s.createFaults ?? []).map((fault) => ({ fault, strikes: strikesOf(s.rows, fault) })) : [];

/**
 * What run `run` (from 1) of the import must show. The first run meets none of the rows' e-mails in the ERP,
 * so every item must create; every later run meets all of them, so every item must update and none may POST.
 */
export function importChecks(s: ImportScenario, run: number, t: ImportTally, executionStatus: string): ImportCheck[] {
	const created = run === 1 ? s.rows : 0;
	const updated = s.rows - created;
	const faults = faultsOfRun(s, run);
	const faultedTotal = faults.reduce((n, f) => n + f.strikes, 0);
	const struckTotal = Object.values(t.faultedPosts).reduce((n, f) => n + f.struck, 0);
	return [
		check('the execution ends "success" (On Error: Continue is on)', `"${executionStatus}"`, executionStatus === 'success'),
		check(
			`each of the ${s.rows} rows gives exactly one output item, paired to it`,
			`${t.outputItems} output items, ${t.unpaired} rows or items not paired one to one`,
			t.outputItems === s.rows && t.unpaired === 0,
		),
		check(`every item succeeds: ${s.rows} succeeded, 0 error items`, `${t.succeeded} succeeded, ${t.errorItems} error items`, t.succeeded === s.rows && t.errorItems === 0),
		check(
			`${created} items say created and ${updated} say updated, as the ERP's records before the run call for (created where no contact had the row's e-mail)`,
			`${t.created} created, ${t.updated} updated, ${t.wrongAction} with another action than their row calls for`,
			t.created === created && t.updated === updated && t.wrongAction === 0,
		),
		check('no error item says the ERP may have done it: 0 unresolved creates', `${t.unresolvedCreates} unresolved creates`, t.unresolvedCreates === 0),
		check(
			"every item reported OK is borne out by the ERP: the contact with the item's ID holds the row's e-mail and this run's first name",
			`${t.lost} items not borne out (lost)`,
			t.lost === 0,
		),
		check(`each of the ${s.rows} rows' e-mails is on one contact, holding this run's first name`, `${t.stored} rows`, t.stored === s.rows),
		check(
			`the ERP holds ${s.otherContacts + s.rows} contacts afterwards: ${s.otherContacts ? `the ${s.otherContacts} others and ` : ''}one per row`,
			`${t.contactsAfter} contacts`,
			t.contactsAfter === s.otherContacts + s.rows,
		),
		check("no row's e-mail is on two contacts", `${t.duplicated} contacts beyond one per row's e-mail (duplicated)`, t.duplicated === 0),
		...(s.otherContacts
			? [check(`the ${s.otherContacts} contacts no row is about are unchanged`, `${t.collateral} changed or gone`, t.collateral === 0)]
			: []),
		check(
			created ? `${created} POSTs: each new e-mail POSTed exactly once` : 'no POST: every e-mail was in the ERP already',
			`${t.posts} POSTs; ${t.newRowsPostedOnce} of ${t.newRows} new e-mails POSTed exactly once`,
			t.posts === created && t.newRowsPostedOnce === created,
		),
		check(
			'no POST for an e-mail the ERP already held when the POST arrived',
			`${t.postsForExistingKeys} such POSTs`,
			t.postsForExistingKeys === 0,
		),
		...faults.map(({ fault, strikes }) => {
			const seen = t.faultedPosts[fault.fault.kind] ?? { struck: 0, saved: 0 };
			return check(
				`${strikes} POSTs ${faultWords(fault)} (every fault queued strikes)`,
				`${seen.struck} POSTs, ${seen.saved} of them saved`,
				seen.struck === strikes && seen.saved === strikes,
			);
		}),
		check('no request but a POST is faulted: every lookup, read and update is answered', `${t.faultedOthers} other requests faulted`, t.faultedOthers === 0),
		check(
			faultedTotal
				? `the items marked recovered are exactly the ${faultedTotal} whose POST was faulted`
				: 'no item is marked recovered: no POST was faulted',
			`${t.recovered} recovered; ${struckTotal} POSTs faulted; ${t.recoveredUnfaulted} recovered without a faulted POST, ${t.faultedUnrecovered} faulted POSTs without a recovered item`,
			t.recovered === faultedTotal && struckTotal === faultedTotal && t.recoveredUnfaulted === 0 && t.faultedUnrecovered === 0,
		),
	];
}
