import { strikesOf } from './createFaults';
import type { ImportScenario } from './scenarios';
import type { ImportTally } from './tallyImport';
import { faultWords } from './title';

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
