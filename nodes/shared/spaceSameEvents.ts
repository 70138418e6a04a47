import { sleep } from 'n8n-workflow';

/*
 * n8n's Remove Duplicates (Remove Items Processed in Previous Executions) reads the keys a workflow has seen and then
 * writes them, with no lock between: two executions with one event key that reach it at the same moment can both
 * pass (a delivery and its resend, or both triggers reporting one event in the same second). So in one n8n process
 * the triggers start items of one key in one workflow SPACING_MS apart, long enough for the first execution to reach
 * Remove Duplicates and record the key. Other processes (queue mode's webhook processors and main) are not spaced.
 */
export const SPACING_MS = 2_000;

/** When an item of each key (workflow id, then the key) last started or is due to start in this process. */
const due = new Map<string, number>();

/** How long to wait before starting these keys (0: at once), each SPACING_MS after the last start of its key; records the start. */
export function spacingFor(workflowId: string, keys: string[], now: number): number {
	for (const [key, at] of due) if (at + SPACING_MS <= now) due.delete(key);
	const scoped = keys.map((key) => `${workflowId}\n${key}`);
	const startAt = Math.max(now, ...scoped.map((key) => (due.get(key) ?? -Infinity) + SPACING_MS));
	for (const key of scoped) due.set(key, startAt);
	return startAt - now;
}

/** Waits until items with these event keys may start in this workflow. */
export async function spaceSameEvents(workflowId: string | undefined, keys: string[]): Promise<void> {
	const wait = spacingFor(workflowId ?? '', keys, Date.now());
	if (wait > 0) await sleep(wait);
}
