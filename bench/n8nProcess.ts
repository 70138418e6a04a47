import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

import { procFile, sleep, statFields } from '../tooling/host/processes';

const statusMb = (pid: number, field: 'VmRSS' | 'VmHWM'): number => {
	const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(procFile(pid, 'status'))?.[1];
	if (kb === undefined) throw new Error(`no ${field} for pid ${pid}: has n8n exited?`);
	return Math.round(Number(kb) / 1024);
};

/** Resident set size in MB (VmRSS). */
export const rssMb = (pid: number): number => statusMb(pid, 'VmRSS');

/**
 * The highest RSS since the last resetPeakRss (VmHWM, kept by the kernel: no sample can miss a short peak).
 * Writing 5 to clear_refs sets it back to the current RSS.
 */
export const peakRssMb = (pid: number): number => statusMb(pid, 'VmHWM');
export const resetPeakRss = (pid: number): void => writeFileSync(`/proc/${pid}/clear_refs`, '5');

/** Runs `work` while sampling RSS every `everyMs`; answers its result and the highest RSS seen. */
export async function peakRssDuring<T>(pid: number, work: () => Promise<T>, everyMs = 25): Promise<{ result: T; peak_mb: number }> {
	let peak_mb = rssMb(pid);
	const timer = setInterval(() => (peak_mb = Math.max(peak_mb, rssMb(pid))), everyMs);
	try {
		const result = await work();
		return { result, peak_mb: Math.max(peak_mb, rssMb(pid)) };
	} finally {
		clearInterval(timer);
	}
}

const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** CPU time the process has used so far (user and system, /proc/<pid>/stat), in milliseconds. */
export function cpuMs(pid: number): number {
	const fields = statFields(pid);
	if (fields.length < 13) throw new Error(`no CPU times for pid ${pid}: has n8n exited?`);
	return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Whether the process still runs. */
export const alive = (pid: number): boolean => {
	try {
		rssMb(pid);
		return true;
	} catch {
		return false;
	}
};

/**
 * Waits until the process has used under `share` of a core for `windowMs` (n8n goes on working after what the
 * bench waited for: an execution it stopped waiting for, its database), for at most `maxMs`, or until it is gone.
 * Answers the CPU its last window used (ms; NaN when it measured none).
 */
export async function untilIdle(pid: number, { windowMs = 1_000, share = 0.1, maxMs = 600_000 } = {}): Promise<number> {
	let used = Number.NaN;
	for (const deadline = Date.now() + maxMs; Date.now() < deadline && alive(pid); ) {
		const before = cpuMs(pid);
		await sleep(windowMs);
		used = cpuMs(pid) - before;
		if (used < share * windowMs) break;
	}
	return used;
}
