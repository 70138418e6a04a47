/**
 * CI's smaller run of the queue-mode suite (`npm run test:queue:smoke`): the six events and 200 deliveries
 * through the webhook processor, and 200 contacts imported in two executions. Writes no report.
 * The ERP Polling Trigger is checked in the full suite only: n8n polls once a minute at the shortest, so even one
 * poll would add 60–75 s to CI's run, and what the smoke is for (the package loads in every process and runs on
 * the workers) the checks here already show.
 */
import { EVENT_NAMES } from '../../sandbox/events';
import { finishImport, startImport } from './scenarios/import';
import { SMOKE_IMPORT_PLAN } from './scenarios/plans';
import { deliveryBurst, sixEvents, triggerFigures, triggerItem } from './scenarios/trigger';
import { expectCompleteImport, expectOneExecutionPerDelivery, WORKERS } from './support/expectations';
import { connect, type QueueSession } from './support/session';

let session: QueueSession;

beforeAll(async () => {
	session = await connect();
});

test('each of the six events starts exactly one execution, on a worker', async () => {
	const run = await sixEvents(session);
	expectOneExecutionPerDelivery(triggerFigures(run, [...EVENT_NAMES], (e) => String(triggerItem(e).event)), 6);
});

test('200 deliveries, 20 at a time: 200 executions, none lost, none twice, both workers', async () => {
	const run = await deliveryBurst(session, 200, 20);
	const figures = triggerFigures(run, Array.from({ length: 200 }, (_, i) => String(i)), (e) => String((triggerItem(e).data as { marker?: number }).marker));
	expectOneExecutionPerDelivery(figures, 200);
	expect(Object.keys(figures.perWorker).sort()).toEqual(WORKERS);
});

test('200 contacts in 2 executions: every contact exactly once', async () => {
	const { figures } = await finishImport(session, await startImport(session, SMOKE_IMPORT_PLAN));
	expectCompleteImport(figures, SMOKE_IMPORT_PLAN);
});
