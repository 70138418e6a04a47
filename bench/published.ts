/** Where the bench keeps its figures: the committed summary the docs are generated from, and each run's raw dump. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { compactJson } from '../tooling/host/compactJson';
import { REPO_ROOT } from '../tooling/host/paths';
import type { Summary } from './summary';

export const SUMMARY_FILE = path.join(REPO_ROOT, 'bench', 'summary.json');
/** Not committed (.gitignore): every sample of every run, to look into a figure. */
export const RUNS_DIR = path.join(REPO_ROOT, '.runs', 'bench');

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export const readSummary = (): Summary => JSON.parse(readFileSync(SUMMARY_FILE, 'utf8')) as Summary;

export const writeSummary = (summary: Summary): void => writeFileSync(SUMMARY_FILE, `${compactJson(summary)}\n`);

/** Writes a run's every figure to .runs/bench/<time>-<what>.json; answers the file. */
export function writeRunDump(what: string, figures: unknown): string {
	mkdirSync(RUNS_DIR, { recursive: true });
	const file = path.join(RUNS_DIR, `${new Date().toISOString().replace(/[:.]/g, '-')}-${what}.json`);
	writeFileSync(file, json(figures));
	return file;
}
