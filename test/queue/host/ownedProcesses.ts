import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { sleep } from '../../host/processGroup';

/**
 * A run's processes: each program it starts leads a process group of its own, recorded in the run's folder, and
 * carries `N8N_ERP_QUEUE_RUN=<run id>` in its environment, which its children inherit. A process belongs to the
 * run when it is in a recorded group (Redis and PostgreSQL overwrite their environment with their process
 * titles) or carries the variable (a child that left its group). That is how the suite finds exactly its own
 * processes, whoever started them (globalSetup, or a test starting a worker again), and proves none is left.
 */
export const RUN_ENV = 'N8N_ERP_QUEUE_RUN';

export interface OwnedRun {
	id: string;
	/** The run's temporary folder. */
	dir: string;
}

const groupsFile = (run: OwnedRun) => path.join(run.dir, 'process-groups');

const recordedGroups = (run: OwnedRun): number[] =>
	existsSync(groupsFile(run)) ? readFileSync(groupsFile(run), 'utf8').split('\n').filter(Boolean).map(Number) : [];

export interface OwnedProcess {
	pid: number;
	parent: number;
	/** Its process group. */
	group: number;
	/** The command line, for messages. */
	command: string;
}

const read = (pid: string, file: string): string => {
	try {
		return readFileSync(`/proc/${pid}/${file}`, 'utf8');
	} catch {
		return ''; // exited meanwhile
	}
};

/**
 * The live processes of this run, from /proc: those in a recorded group or carrying the variable, and their
 * descendants (PostgreSQL's backends start sessions of their own). Zombies, which a container's init may never
 * reap, do not count.
 */
export function ownedProcesses(run: OwnedRun): OwnedProcess[] {
	const marker = `${RUN_ENV}=${run.id}`;
	const groups = recordedGroups(run);
	const live: Array<OwnedProcess & { marked: boolean }> = [];
	for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
		const stat = read(pid, 'stat');
		// Fields after "(comm)": state ppid pgrp …
		const [state, parent, group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		if (state === 'Z' || state === undefined) continue;
		const marked = groups.includes(Number(group)) || read(pid, 'environ').split('\0').includes(marker);
		const command = read(pid, 'cmdline').split('\0').join(' ').trim();
		live.push({ pid: Number(pid), group: Number(group), command, parent: Number(parent), marked });
	}
	const owned = treesOf(live.filter((p) => p.marked).map((p) => p.pid), live);
	return live.filter((p) => owned.has(p.pid)).map(({ marked: _marked, ...p }) => p);
}

function signal(pid: number, name: NodeJS.Signals): void {
	try {
		process.kill(pid, name);
	} catch {
		// already gone
	}
}

/** The synchronous last resort (an `exit` handler): SIGKILL to every process of the run. */
export function killOwned(run: OwnedRun): void {
	for (const { pid } of ownedProcesses(run)) signal(pid, 'SIGKILL');
}

/** These processes and their descendants, among `all`. */
function treesOf(roots: number[], all: OwnedProcess[]): Set<number> {
	const trees = new Set(roots);
	for (let grew = true; grew; ) {
		grew = false;
		for (const p of all) {
			if (!trees.has(p.pid) && trees.has(p.parent)) {
				trees.add(p.pid);
				grew = true;
			}
		}
	}
	return trees;
}

/**
 * SIGTERM to every process of the run but the `keep` ones and their descendants, SIGKILL to those still there
 * after `graceMs`; answers what had to be killed.
 */
export async function stopOwned(run: OwnedRun, graceMs: number, keep: number[] = []): Promise<OwnedProcess[]> {
	const targets = () => {
		const all = ownedProcesses(run);
		const kept = treesOf(keep, all);
		return all.filter((p) => !kept.has(p.pid));
	};
	for (const { pid } of targets()) signal(pid, 'SIGTERM');
	const deadline = Date.now() + graceMs;
	while (targets().length > 0 && Date.now() < deadline) await sleep(100);
	const killed = targets();
	for (const { pid } of killed) signal(pid, 'SIGKILL');
	return killed;
}

export interface SpawnOwnedOptions {
	run: OwnedRun;
	env: NodeJS.ProcessEnv;
	/** stdout and stderr go here (appended). */
	logFile: string;
	cwd?: string;
	/** Run as this user (PostgreSQL refuses to run as root). */
	user?: { uid: number; gid: number };
}

/** Starts a program in a process group of its own, marked as this run's; answers its pid (= its group id). */
export function spawnOwned(command: string, args: string[], options: SpawnOwnedOptions): number {
	const log = openSync(options.logFile, 'a');
	const child = spawn(command, args, {
		cwd: options.cwd,
		env: { ...options.env, [RUN_ENV]: options.run.id },
		stdio: ['ignore', log, log],
		detached: true,
		...options.user,
	});
	closeSync(log);
	child.on('error', () => undefined); // reported below: no pid
	if (child.pid === undefined) throw new Error(`could not start ${command}`);
	appendFileSync(groupsFile(options.run), `${child.pid}\n`);
	child.unref();
	return child.pid;
}
