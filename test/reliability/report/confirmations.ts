import type { ConfirmationScenarioResult } from '../confirmations/runConfirmations';
import { paragraphs, seconds, table, verdict } from '../../../tooling/host/results';

/** The summary's rows for the confirmation scenario. */
export function confirmationSummaryRows(c: ConfirmationScenarioResult | null): unknown[][] {
	if (!c) return [['ERP Trigger confirmation', 'not run']];
	return [
		['ERP Trigger confirmation: real deliveries', `${c.real.deliveries} (${c.real.confirmed} confirmed, ${c.real.couldNotConfirm} passed on as could not confirm)`],
		['ERP Trigger confirmation: real ones lost', c.real.lost],
		['ERP Trigger confirmation: forged deliveries', c.forged.deliveries],
		['ERP Trigger confirmation: forged ones on Confirmed', c.forged.confirmed],
		['ERP Trigger confirmation: confirmed twice', c.startedTwice],
	];
}

/** The block `reliability:confirmations`: the run's settings, its counts and its verdict. */
export function confirmationBlock(c: ConfirmationScenarioResult | null): string {
	if (!c) return 'The scenario did not run.';
	return paragraphs(
		`Settings: \`${JSON.stringify(c.settings)}\`. This run took **${seconds(c.wallMs)}** (preparing the records included); ` +
			`${c.faultsStruck} API requests were struck by a fault; the trigger sent ${c.requestsPerDelivery} API requests per delivery. ` +
			`${c.resent ?? 0} real deliveries answered other than 2xx on both of the sandbox's attempts were sent again (same id, same bytes), as an ERP that retries would; each counts once.`,
		table(
			['deliveries', 'sent', 'confirmed', 'could not confirm (never confirmed)', 'contradicted', 'unconfirmable', 'on no output', 'first answer 503'],
			[
				['real', c.real.deliveries, c.real.confirmed, c.real.couldNotConfirm, c.real.refused, '', c.real.lost, c.real.answered503],
				['forged', c.forged.deliveries, c.forged.confirmed, c.forged.couldNotConfirm, c.forged.contradicted, c.forged.unconfirmable, c.forged.unseen, ''],
			],
		),
		table(
			['check', 'must be', 'counted'],
			[
				['real deliveries lost (neither confirmed nor passed on as could not confirm)', 0, c.real.lost],
				['real deliveries called contradicted or unconfirmable', 0, c.real.refused],
				['forged deliveries on Confirmed or at the acting step', 0, c.forged.confirmed],
				['deliveries confirmed in more than one execution', 0, c.startedTwice],
				['could-not-confirm items without a reason', 0, c.withoutReason],
				['items for a delivery the sandbox never sent', 0, c.unknownKeys],
				['the tokens in the executions', 0, c.tokenLeaks],
			],
		),
		`Executions: ${c.executions} (${c.errorExecutions} ended in an error). Result: ${verdict(c.failures)}.`,
		c.examples.length > 0 && c.examples.map((example) => `- ${example}`).join('\n'),
	).trimEnd();
}
