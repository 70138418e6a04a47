import { sleep } from '../../../tooling/host/processes';
import { erpApi } from '../../../tooling/host/erpApi';
import type { ReliabilitySession } from '../setup/context';

/**
 * Waits until the sandbox has processed every request of the run, then clears the faults. A late answer is still
 * delayed after n8n gave up on it; a request sent now with the same delay comes after all earlier ones (`lateMs`
 * waits out one a queued fault delays). Answers that request's sequence number: the run's requests come before it.
 */
export async function settle(session: ReliabilitySession, lateMs = 0): Promise<number> {
	await session.sandbox.setFaults({ errorRate: 0, dropRate: 0, nonJsonRate: 0, rateLimit: null });
	await session.sandbox.clearFaultQueue();
	await sleep(lateMs);
	await erpApi(session.ctx, 'GET', '/contacts?per_page=1');
	await session.sandbox.clearFaults();
	return await session.sandbox.lastRequestSeq();
}
