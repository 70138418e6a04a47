import { readdirSync, readFileSync } from 'node:fs';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The running (non-zombie) processes of a process group, from /proc. `kill(-pgid, 0)` is no help here: it
 * also succeeds for zombies, which a container's init may never reap.
 */
export function groupMembers(pgid: number): number[] {
	const members: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		let stat: string;
		try {
			stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
		} catch {
			continue; // exited meanwhile
		}
		// Fields after "(comm)": state ppid pgrp …; comm may itself contain spaces and parentheses.
		const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(entry));
	}
	return members;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pgid, signal);
	} catch {
		// already gone
	}
}

/** SIGTERM to the whole group, then SIGKILL to whatever still runs after `graceMs`. */
export async function stopGroup(pgid: number, graceMs: number): Promise<void> {
	if (groupMembers(pgid).length === 0) return;
	signalGroup(pgid, 'SIGTERM');
	const deadline = Date.now() + graceMs;
	while (groupMembers(pgid).length > 0 && Date.now() < deadline) await sleep(100);
	if (groupMembers(pgid).length > 0) signalGroup(pgid, 'SIGKILL');
}

/** The synchronous last resort for `process.on('exit')`. */
export function killGroup(pgid: number): void {
	if (groupMembers(pgid).length > 0) signalGroup(pgid, 'SIGKILL');
}

/**
 * Ctrl-C or SIGTERM end this process through process.exit, so that the exit handlers run (they kill n8n's
 * process group and delete a temporary user folder); Node's default would skip them.
 */
export function exitOnSignals(): void {
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => process.exit(130));
}
