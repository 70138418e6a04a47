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
