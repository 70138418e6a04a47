import type { Invoice } from '../../../sandbox/types';
import { erpApi } from '../../../tooling/host/erpApi';
import { sleep } from '../../../tooling/host/processes';
import type { ReliabilitySession } from '../setup/context';

/** Whether a receiver's answer to a delivery attempt was 2xx (undefined: no answer). */
export const isOk = (status: number | undefined) => status !== undefined && status >= 200 && status < 300;

/** Waits until the sandbox attempts no delivery any more. */
export async function deliveriesDone(session: ReliabilitySession): Promise<void> {
	for (let waited = 0; waited < 120_000; waited += 250) {
		if ((await session.sandbox.deliveries({ done: false })).length === 0) return;
		await sleep(250);
	}
}

/** How often the run's tokens show in `text` (executions as n8n saved them). */
export const tokenCount = (session: ReliabilitySession, text: string): number =>
	[session.ctx.token, session.ctx.readOnlyToken].reduce((n, token) => n + text.split(token).length - 1, 0);

/** `count` sent invoices (paid too when `paid`) of one `line` each, for `contactOf()`, ten at a time, made before the faults are on. */
export async function sentInvoices(session: ReliabilitySession, count: number, line: object, contactOf: () => number, paid = false): Promise<number[]> {
	const invoice = async () => {
		const { id } = await erpApi<Invoice>(session.ctx, 'POST', '/invoices', { contact_id: contactOf(), lines: [line] });
		await erpApi(session.ctx, 'POST', `/invoices/${id}/send`, { email: 'ap@example.com' });
		if (paid) await erpApi(session.ctx, 'POST', `/invoices/${id}/mark-paid`, {});
		return id;
	};
	const ids: number[] = [];
	for (let i = 0; i < count; i += 10) ids.push(...(await Promise.all(Array.from({ length: Math.min(10, count - i) }, invoice))));
	return ids;
}
