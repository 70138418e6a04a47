/**
 * The one writer of the suites' results: the run's every figure in .runs/ (not committed), the figures its document
 * shows in a committed JSON file, and the Markdown document made from that file alone, so it can be regenerated
 * without running the suite (`npm run docs:regenerate`).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { compactJson } from './compactJson';
import { figuresRead } from './figuresRead';
import { REPO_ROOT } from './paths';

/** Where a full run's every figure goes, under the path of its report's `json` (ignored by git). */
export const RUNS_DIR = '.runs';

export interface Report<R> {
	/** The figures the document shows, relative to the repository (committed; the run's every figure: under RUNS_DIR). */
	json: string;
	/** Where a partial run writes its figures instead, never over a full run's; none: it writes nothing. */
	partialJson?: string;
	/** The document, relative to the repository. */
	doc: string;
	/** The document's text from the figures and its current text (for a document with a generated part). */
	markdown: (results: R, current: string) => string;
}

const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');
function writeJson(file: string, value: unknown): void {
	mkdirSync(path.dirname(path.join(REPO_ROOT, file)), { recursive: true });
	writeFileSync(path.join(REPO_ROOT, file), `${compactJson(value)}\n`);
}

/** Whether jest was asked to run only the tests matching a name (-t / --testNamePattern). */
export const isPartialRun = (argv = process.argv) => argv.some((arg) => arg === '-t' || arg.startsWith('--testNamePattern') || /^-t./.test(arg));

/** The figures the document shows of the last full run; undefined when there are none yet. */
export const readResults = <R>(report: Report<R>): R | undefined =>
	existsSync(path.join(REPO_ROOT, report.json)) ? (JSON.parse(read(report.json)) as R) : undefined;

/** The document as the figures of the last full run make it. */
export function markdownOf<R>(report: Report<R>): string {
	const results = readResults(report);
	if (!results) throw new Error(`no ${report.json} to generate ${report.doc} from`);
	return report.markdown(results, existsSync(path.join(REPO_ROOT, report.doc)) ? read(report.doc) : '');
}

/** Writes the document again from the figures of the last full run. */
export const regenerateDoc = <R>(report: Report<R>) => writeFileSync(path.join(REPO_ROOT, report.doc), markdownOf(report));

/** The part of `results` the document's generator reads: what the committed JSON holds. */
export const shownFigures = <R>(report: Report<R>, results: R & object): R =>
	figuresRead(results, (watched) => report.markdown(watched, existsSync(path.join(REPO_ROOT, report.doc)) ? read(report.doc) : ''));

/**
 * Writes the run's every figure under RUNS_DIR, the figures the document shows to `json`, and the document from
 * them; a partial run writes its figures apart only.
 */
export function writeResults<R>(report: Report<R>, results: R & object, partial = isPartialRun()): void {
	if (partial) {
		if (report.partialJson) writeJson(report.partialJson, results);
		return;
	}
	writeJson(path.join(RUNS_DIR, report.json), results);
	writeJson(report.json, shownFigures(report, results));
	regenerateDoc(report);
}

/** `doc` with the text between the markers replaced by `body`; a document without them is refused. */
export function withBlock(doc: string, markers: { start: string; end: string }, body: string): string {
	const start = doc.indexOf(markers.start);
	const end = doc.indexOf(markers.end);
	if (start < 0 || end < start) throw new Error(`the document lacks the markers ${markers.start} … ${markers.end}`);
	return `${doc.slice(0, start + markers.start.length)}\n${body}\n${doc.slice(end)}`;
}

/** `doc` with each block `<!-- name -->` … `<!-- /name -->` filled with its body: the hand-written text around stays. */
export const withBlocks = (doc: string, bodies: Record<string, string>) =>
	Object.entries(bodies).reduce((text, [name, body]) => withBlock(text, { start: `<!-- ${name} -->`, end: `<!-- /${name} -->` }, body), doc);

// Markdown pieces the documents are built from.
const cell = (text: unknown) => String(text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
const row = (cells: unknown[]) => `| ${cells.map(cell).join(' | ')} |`;
export const table = (header: string[], rows: unknown[][]) => [row(header), row(header.map(() => '---')), ...rows.map(row)].join('\n');
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const verdict = (failures: string[]) => (failures.length === 0 ? 'pass' : `**FAIL**: ${failures.join('; ')}`);
export const times = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
/** The parts given (false: left out), each followed by a blank line. */
export const paragraphs = (...parts: Array<string | false | undefined>) => parts.filter(Boolean).map((part) => `${part}\n`).join('\n');
/** `name: n, …` sorted by name, e.g. executions per worker. */
export const counts = (byName: Record<string, number>) =>
	Object.entries(byName).sort(([a], [b]) => a.localeCompare(b)).map(([name, n]) => `${name}: ${n}`).join(', ');
