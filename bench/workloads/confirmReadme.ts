import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { table, withBlock } from '../../tooling/host/results';
import type { Target } from '../targets';
import type { ConfirmResult } from './confirm';

const MARKERS = { start: '<!-- bench:confirm:start (written by npm run bench -- --only confirm) -->', end: '<!-- bench:confirm:end -->' };

const yes = (met: boolean) => (met ? 'yes' : '**no**');

/** What the refused first attempts were answered: n8n's or the trigger's 503, or nothing within the ERP's wait. */
function refusedBy(b: ConfirmResult['burst']): string {
	const refusals = Object.entries(b.firstAnswers).filter(([status]) => !/^2\d\d$/.test(status));
	return refusals.length === 0 ? '' : `: ${refusals.map(([status, n]) => `${status === 'none' ? 'no answer' : status} ×${n}`).join(', ')}`;
}

/** What the lost deliveries' attempts were answered, attempt by attempt. */
function lostBy(b: ConfirmResult['burst']): string {
	const answers = Object.entries(b.lostAnswers ?? {});
	return answers.length === 0 ? '' : `: ${answers.map(([seq, n]) => `${seq.replace(/none/g, 'no answer')} ×${n}`).join('; ')}`;
}

/** The confirm part's block of bench/README.md, from its figures. */
export function confirmBlock(c: ConfirmResult & { targets: Target[] }): string {
	const row = (label: string, cost: ConfirmResult['cost']['v1']) => [label, cost.deliveries, `${cost.answerMedian_ms} ms`, `${cost.answerMax_ms} ms`, cost.requestsPerDelivery, cost.notOk];
	const burstRow = (b: ConfirmResult['burst']) => [
		b.version === 1
			? `${b.deliveries} invoice.paid at once, version 1 (no confirmation: n8n alone)`
			: `${b.deliveries} invoice.paid at once, limit ${b.limit_rps} requests/s, Confirmation Wait ${b.confirmationWait === null ? 'default' : `${b.confirmationWait} s`}`,
		b.firstAttemptOk,
		`${b.refused} (${(b.refusedShare * 100).toFixed(1)}%)${refusedBy(b)}`,
		b.confirmed,
		b.couldNotConfirmOnly,
		`${b.lost}${lostBy(b)}`,
		b.countedLate,
		b.unfinishedExecutions ?? '',
		b.confirmedTwice,
		b.refused429,
		`${b.seconds} s`,
	];
	return [
		`Run ${c.date.slice(0, 10)} against n8n ${c.n8n}; the ERP ${c.latency_ms} ms away (every API answer that late), and waiting ${c.erpTimeout_ms / 1000} s for n8n's answer to a delivery.`,
		'',
		table(
			['delivery', 'deliveries', "the ERP's wait for the answer (median)", '(max)', 'API requests per delivery', 'answers other than 200'],
			[row('version 1 (no confirmation), invoice.paid', c.cost.v1), row('version 2, Confirm With the ERP, invoice.paid', c.cost.v2), row('version 2, Confirm With the ERP, product.low_stock', c.cost.v2LowStock)],
		),
		'',
		`Confirmation adds **${c.addedMedian_ms} ms** to the ERP's wait (median over median).`,
		'',
		table(
			['burst', 'answered 2xx at once', 'refused (sent again)', 'confirmed', 'could not confirm only', 'lost (no execution)', 'executions after the ERP was done', 'executions n8n never finished', 'confirmed twice', '429s to the reads', 'until the last answer'],
			[burstRow(c.burstV1), burstRow(c.burstDefault), burstRow(c.burst)],
		),
		'',
		table(['target', 'value', 'met'], c.targets.map((t) => [`${t.workload}: ${t.goal}`, t.value, yes(t.met)])),
	].join('\n');
}

/** Writes the confirm part's block into bench/README.md. */
export function writeConfirmReadme(repoRoot: string, c: ConfirmResult & { targets: Target[] }): void {
	const file = path.join(repoRoot, 'bench', 'README.md');
	writeFileSync(file, withBlock(readFileSync(file, 'utf8'), MARKERS, confirmBlock(c)));
}
