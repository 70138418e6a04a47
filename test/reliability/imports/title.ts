import { percent, times } from '../faults/title';
import type { CreateFault, ImportScenario } from './scenarios';

/** What a fault does to a POST, e.g. "answered 500 after the ERP saved the contact". */
export function faultWords({ fault }: CreateFault): string {
	const what = fault.kind === 'drop' ? 'dropped' : fault.kind === 'html' ? `answered by a proxy's HTML ${fault.status ?? 502} page` : `answered ${fault.status ?? 500}`;
	return `${what} after the ERP saved the contact`;
}

/** What the import does and what goes wrong meanwhile, in words made from its settings. */
export function importTitle(s: ImportScenario): string {
	const faults = s.createFaults?.map((f, i) => `${percent(f.share)}${i === 0 ? ' of POST /contacts' : ''} are ${faultWords(f)}`).join(' and ');
	const what =
		s.runs > 1
			? `Import of ${s.rows} contacts run ${times(s.runs)}, every run after the first with changed first names`
			: `Import of ${s.rows} new contacts`;
	const others = s.otherContacts ? `, beside ${s.otherContacts} contacts no row is about` : '';
	return `${what}${others}${faults ? `, while ${faults} (in an order drawn from the seed)` : ''} — Create or Update, Concurrency ${s.options.concurrency}`;
}
