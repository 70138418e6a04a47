import type { Results } from '../results';
import { count } from './format';

/** The ERP Polling Trigger's cost per poll by size and Trigger On (issue 22), for README.md's speed section. */
export function pollingSection(polling: NonNullable<Results['polling']>): string[] {
	const { costs, date, machine } = polling;
	const kb = (bytes: number) => `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} kB`;
	return [
		`**ERP Polling Trigger, per poll** (\`npm run bench -- --only polling\`, ${date.slice(0, 10)}, 1-minute load ${machine.loadAvg.start}; ` +
			'in-process against the loopback sandbox: requests and memory depend on the records only, not on n8n; times',
		'are on this 2-core machine). A poll reads every page of the list (100 records a page), plus one lookup per',
		'remembered record the scan did not show; the first poll scans until a scan finds nothing new (twice when',
		'nothing moves). "After changes": 5 contacts created, 5 updated, 2 deleted since the last poll.',
		'',
		'| contacts | Trigger On | first poll: requests, time | poll with no change: requests, time | after changes: requests, reported | memory n8n stores (per contact) |',
		'|---|---|---|---|---|---|',
		...costs.map(
			(c) =>
				`| ${count(c.records)} | ${c.watch} | ${c.baselineRequests}, ${c.baselineMs} ms | ${c.steadyRequests}, ${c.steadyMs} ms | ` +
				`${c.changedRequests}, ${c.changedReported} | ${kb(c.stateBytes)} (${c.stateBytesPerRecord} bytes) |`,
		),
		'',
		'*Stock Below Threshold* adds one stock request per product watched (1,000 products: 1,000 requests a poll);',
		'choose products, or poll less often, when the ERP limits requests.',
	];
}
