import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A run: processes that several processes start (globalSetup, a test starting a worker again), all to be found
 * again to prove none is left. Each leads a process group recorded in the run's folder `dir` and carries
 * `N8N_ERP_QUEUE_RUN=<run id>`, which its children inherit. A process belongs to the run when it is in a recorded
 * group (Redis and PostgreSQL overwrite their environment with their process titles), carries the variable (a child
 * that left its group) or descends from one of those (PostgreSQL's backends).
 */
export interface Run {
	id: string;
	dir: string;
}

const RUN_ENV = 'N8N_ERP_QUEUE_RUN';

interface LiveProcess {
	pid: number;
	parent: number;
	group: number;
}

/** A file of /proc/<pid>/, or '' once the process is gone (or not ours to read). */
export function procFile(pid: number, file: string): string {
	try {
		return readFileSync(`/proc/${pid}/${file}`, 'utf8');
	} catch {
		return '';
	}
}

/** The fields of /proc/<pid>/stat after "(comm)": state ppid pgrp …; none once the process is gone. */
export function statFields(pid: number): string[] {
	const stat = procFile(pid, 'stat');
	// comm may itself contain spaces and parentheses.
	return stat ? stat.slice(stat.lastIndexOf(')') + 2).split(' ') : [];
}

/** Whether the process runs: not a zombie, which a container's init may never reap (and `kill(pid, 0)` finds). */
const isRunning = (pid: number): boolean => (statFields(pid)[0] ?? 'Z') !== 'Z';

/** The running processes, from /proc. */
function liveProcesses(): LiveProcess[] {
	return readdirSync('/proc').flatMap((entry) => {
		const [state, parent, group] = /^\d+$/.test(entry) ? statFields(Number(entry)) : [];
		return state && state !== 'Z' ? [{ pid: Number(entry), parent: Number(parent), group: Number(group) }] : [];
	});
}

/** These processes and their descendants, among `all`. */
function treesOf(roots: number[], all: LiveProcess[]): Set<number> {
	const trees = new Set(roots);
	for (let size = -1; size !== trees.size; ) {
		size = trees.size;
		for (const p of all) if (trees.has(p.parent)) trees.add(p.pid);
	}
	return trees;
}

const groupsFile = (run: Run) => path.join(run.dir, 'process-groups');
const recordedGroups = (run: Run): number[] =>
	existsSync(groupsFile(run)) ? readFileSync(groupsFile(run), 'utf8').split('\n').filter(Boolean).map(Number) : [];

/** The live processes of the run, with their command lines (for messages). */
export function runProcesses(run: Run): Array<LiveProcess & { command: string }> {
	const groups = recordedGroups(run);
	const all = liveProcesses();
	const marked = all.filter((p) => groups.includes(p.group) || procFile(p.pid, 'environ').split('\0').includes(`${RUN_ENV}=${run.id}`));
	const owned = treesOf(marked.map((p) => p.pid), all);
	return all.filter((p) => owned.has(p.pid)).map((p) => ({ ...p, command: procFile(p.pid, 'cmdline').split('\0').join(' ').trim() }));
}

function signal(pids: number[], name: NodeJS.Signals): void {
	for (const pid of pids) {
		try {
			process.kill(pid, name);
		} catch {
			// already gone
		}
	}
}

/** What this process started and has not stopped or removed; its exit, however it comes, SIGKILLs and deletes them. */
const leftovers = { groups: new Set<number>(), runs: new Set<Run>(), folders: new Set<string>() };
process.prependListener('exit', () => {
	signal([...leftovers.groups].map((pgid) => -pgid), 'SIGKILL');
	for (const run of leftovers.runs) signal(runProcesses(run).map((p) => p.pid), 'SIGKILL');
	for (const folder of leftovers.folders) rmSync(folder, { recursive: true, force: true });
});

/** A new temporary folder, deleted by removeFolder or when this process exits, unless `keep`. */
export function temporaryFolder(name: string, keep = false): string {
	const folder = mkdtempSync(path.join(os.tmpdir(), `n8n-nodes-erp-${name}-`));
	if (!keep) leftovers.folders.add(folder);
	return folder;
}

export function removeFolder(folder: string): void {
	leftovers.folders.delete(folder);
	rmSync(folder, { recursive: true, force: true });
}

/** A new run in a temporary folder; its processes are SIGKILLed when this process exits before stopRun. */
export function startRun(name: string, keepFolder: boolean): Run {
	const run = { id: randomBytes(6).toString('hex'), dir: temporaryFolder(name, keepFolder) };
	leftovers.runs.add(run);
	return run;
}

/** SIGTERM to `to()` (default: the `targets()`), SIGKILL after `graceMs` (0: at once); resolves once all are gone. */
async function stopAll(targets: () => number[], graceMs: number, to = targets): Promise<void> {
	if (graceMs > 0) signal(to(), 'SIGTERM');
	const deadline = Date.now() + graceMs;
	while (targets().length > 0 && Date.now() < deadline) await sleep(100);
	if (targets().length > 0) signal(to(), 'SIGKILL');
	for (const killed = Date.now(); targets().length > 0 && Date.now() - killed < 5000; ) await sleep(50);
}

/** Stops a process group (a program and, for n8n, its task runners): SIGTERM, then SIGKILL after `graceMs` (0: at once). */
export async function stopGroup(pgid: number, graceMs: number): Promise<void> {
	leftovers.groups.delete(pgid);
	// Signalled as a group (-pgid), so that a child started meanwhile gets the signal too.
	await stopAll(() => liveProcesses().flatMap((p) => (p.group === pgid ? [p.pid] : [])), graceMs, () => [-pgid]);
}

/** Stops every process of the run but the `keep` ones and their descendants, as stopGroup does. */
export async function stopRun(run: Run, graceMs: number, keep: number[] = []): Promise<void> {
	for (const pgid of recordedGroups(run)) if (!keep.includes(pgid)) leftovers.groups.delete(pgid);
	if (keep.length === 0) leftovers.runs.delete(run);
	await stopAll(() => {
		const all = runProcesses(run);
		const kept = treesOf(keep, all);
		return all.flatMap((p) => (kept.has(p.pid) ? [] : [p.pid]));
	}, graceMs);
}

export interface SpawnOptions {
	env: NodeJS.ProcessEnv;
	/** stdout and stderr go here (appended). */
	logFile: string;
	cwd?: string;
	/** The run it belongs to, if any. */
	run?: Run;
	/** Run as this user (PostgreSQL refuses to run as root). */
	user?: { uid: number; gid: number };
}

/** Starts a program in a process group of its own; answers its pid, the group's id. */
export function spawnGroup(command: string, args: string[], options: SpawnOptions): number {
	const log = openSync(options.logFile, 'a');
	const child = spawn(command, args, {
		cwd: options.cwd,
		env: options.run ? { ...options.env, [RUN_ENV]: options.run.id } : options.env,
		stdio: ['ignore', log, log],
		detached: true,
		...options.user,
	});
	closeSync(log);
	child.on('error', () => undefined); // reported below: no pid
	if (child.pid === undefined) throw new Error(`could not start ${command}`);
	if (options.run) appendFileSync(groupsFile(options.run), `${child.pid}\n`);
	leftovers.groups.add(child.pid);
	child.unref();
	return child.pid;
}

/** Resolves once `ready()` answers true; should the process exit first or `timeoutMs` pass, stops its group and throws its log's tail. */
export async function untilReady(pid: number, ready: () => Promise<boolean> | boolean, what: string, logFile: string, timeoutMs: number): Promise<void> {
	const started = Date.now();
	while (!(await ready())) {
		const failure = !isRunning(pid) ? 'exited during boot' : Date.now() - started > timeoutMs ? `was not ready within ${timeoutMs / 1000} s` : '';
		if (failure) {
			await stopGroup(pid, 5000);
			const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n') : '(no log)';
			throw new Error(`${what} ${failure}. Last lines of ${logFile}:\n${tail}`);
		}
		await sleep(200);
	}
}

/**
 * Ctrl-C, SIGTERM or SIGHUP: `stop()` the ordinary way, then exit with `exitCode`; a second signal exits at once.
 * Exiting through process.exit runs the exit handler above, which Node's default for these signals would skip.
 */
export function stopOnSignals(stop: () => Promise<unknown>, log: (line: string) => void, exitCode = 130): void {
	let stopping = false;
	for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.on(name, () => {
			if (stopping) process.exit(130);
			stopping = true;
			log(`${name}: stopping…`);
			stop()
				.catch((error: Error) => log(error.message))
				.finally(() => process.exit(exitCode));
		});
	}
}
