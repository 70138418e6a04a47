/** Where the bench keeps its figures: the committed summary the docs are generated from, and each run's raw dump. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from '../tooling/host/paths';
import type { Summary } from './summary';

export const SUMMARY_FILE = path.join(REPO_ROOT, 'bench', 'summary.json');
/** Not committed (.gitignore): every sample of every run, to look into a figure. */
export const RUNS_DIR = path.join(REPO_ROOT, 'bench', 'runs');

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** JSON indented by two, with an object or array of plain values on one line: a summary whose diff reads. */
export function compactJson(value: unknown, indent = ''): string {
	if (value === null || typeof value !== 'object') return JSON.stringify(value);
	const isArray = Array.isArray(value);
	const entries: Array<[string | undefined, unknown]> = isArray
		? value.map((item: unknown) => [undefined, item])
		: Object.entries(value).filter(([, item]) => item !== undefined);
	const inner = `${indent}  `;
	const items = entries.map(([key, item]) => `${key === undefined ? '' : `${JSON.stringify(key)}: `}${compactJson(item, inner)}`);
	const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
	if (entries.every(([, item]) => item === null || typeof item !== 'object')) return `${open}${items.join(', ')}${close}`;
	return `${open}\n${items.map((item) => `${inner}${item}`).join(',\n')}\n${indent}${close}`;
}

export const readSummary = (): Summary => JSON.parse(readFileSync(SUMMARY_FILE, 'utf8')) as Summary;

export const writeSummary = (summary: Summary): void => writeFileSync(SUMMARY_FILE, `${compactJson(summary)}\n`);

/** Writes a run's every figure to bench/runs/<time>-<what>.json; answers the file. */
export function writeRunDump(what: string, figures: unknown): string {
	mkdirSync(RUNS_DIR, { recursive: true });
	const file = path.join(RUNS_DIR, `${new Date().toISOString().replace(/[:.]/g, '-')}-${what}.json`);
	writeFileSync(file, json(figures));
	return file;
}
