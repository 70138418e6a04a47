import type { ImportFigures, ImportPlan } from '../scenarios/import';
import type { TriggerFigures } from '../scenarios/trigger';

export const WORKERS = ['worker-1', 'worker-2'];

/** `count` deliveries, each answered at the first attempt and starting one successful execution on a worker. */
export function expectOneExecutionPerDelivery(figures: TriggerFigures, count: number): void {
	expect(figures).toMatchObject({ deliveries: count, retriedDeliveries: 0, executions: count, succeeded: count, lost: 0, twice: 0, workerMismatches: 0 });
}

/** Every execution succeeded, no item failed, the ERP holds every contact exactly once. */
export function expectCompleteImport(figures: ImportFigures, plan: ImportPlan): void {
	const contacts = plan.executions * plan.rowsPerExecution;
	expect(figures).toMatchObject({
		executions: plan.executions,
		succeeded: plan.executions,
		failedItems: 0,
		erp: { records: contacts, missing: 0, duplicates: 0 },
	});
}
