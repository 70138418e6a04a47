import type { GrowthSummary, PointSummary, SeriesSummary } from '../summary';
import type { LimitTry } from '../workloads/limit';
import { measured, type GrowthGap } from '../workloads/scaling';
import { count, s } from './format';

type Scaling = NonNullable<GrowthSummary['scaling']>;
type Limit = NonNullable<GrowthSummary['limit']>;
type InParts = NonNullable<GrowthSummary['inParts']>;

const answer = (latencyMs: number) => (latencyMs === 0 ? 'loopback' : `${latencyMs} ms`);
const perThousand = (point: PointSummary) => `${(point.perRecord_ms * 1000).toFixed(0)} ms`;
const cpuPerThousand = (point: PointSummary) => `${(point.cpuPerRecord_ms * 1000).toFixed(0)} ms`;
const find = (r: Scaling, operation: SeriesSummary['operation'], contender: SeriesSummary['contender'], latencyMs: number) =>
	r.series.find((one) => one.operation === operation && one.contender === contender && one.latency_ms === latencyMs);
const pointAt = (series: SeriesSummary | undefined, size: number) => series?.points.find((point) => point.size === size);
const loads = (points: PointSummary[]) => `${Math.min(...points.map((point) => point.runLoad.min))}–${Math.max(...points.map((point) => point.runLoad.max))}`;

const WIDTH = 5;

/** A measured point's cells (time, per 1,000, n8n's CPU per 1,000, peak RSS, requests), or why it was not measured. */
function cells(point: PointSummary | ReturnType<typeof pointAt>): string {
	if (!point) return Array(WIDTH).fill('—').join(' | ');
	if (!measured(point)) return [point.notMeasured, ...Array(WIDTH - 1).fill('—')].join(' | ');
	return [s(point.seconds), perThousand(point), cpuPerThousand(point), `${point.rssPeak_mb} MB`, count(point.requests)].join(' | ');
}

/** "ERP node loopback 1.21×, …": the bend of each series, and whether it is within the tolerance. */
function bends(r: Scaling): string {
	return r.series
		.filter((one) => one.bend !== undefined)
		.map((one) => {
			const label = `${one.operation === 'create' ? 'Create' : one.contender === 'erpNode' ? 'ERP node' : 'HTTP Request node'} ${answer(one.latency_ms)}`;
			const beyond = (one.bend ?? 0) > r.tolerance ? ' (**beyond**)' : '';
			return `${label} ${one.bend?.toFixed(2)}×${beyond} (n8n's CPU ${one.cpuBend?.toFixed(2)}×)`;
		})
		.join(', ');
}

function scalingTables(r: Scaling): string[] {
	const sizes = (operation: SeriesSummary['operation']) => [...new Set(r.series.filter((one) => one.operation === operation).flatMap((one) => one.points.map((p) => p.size)))];
	const latencies = [...new Set(r.series.map((one) => one.latency_ms))];
	const measuredOf = (operation: SeriesSummary['operation']) => r.series.filter((one) => one.operation === operation).flatMap((one) => one.points.filter(measured));
	const seeded = r.seeding.map((seed) => `${count(seed.records)} in ${s(seed.seconds)}`).join(', ');
	return [
		`| Return All: contacts | answer time | ERP node (Concurrency ${r.concurrency.returnAll}) | per 1,000 | n8n CPU per 1,000 | n8n peak RSS | requests | ` +
			'HTTP Request node with pagination | per 1,000 | n8n CPU per 1,000 | n8n peak RSS | requests |',
		'|---|---|---|---|---|---|---|---|---|---|---|---|',
		...latencies.flatMap((latency) =>
			sizes('returnAll').map(
				(size) =>
					`| ${count(size)} | ${answer(latency)} | ${cells(pointAt(find(r, 'returnAll', 'erpNode', latency), size))} | ` +
					`${cells(pointAt(find(r, 'returnAll', 'httpRequestNode', latency), size))} |`,
			),
		),
		'',
		`| Create: items | answer time | ERP node (Map Automatically, Concurrency ${r.concurrency.create}) | per 1,000 | n8n CPU per 1,000 | n8n peak RSS | requests |`,
		'|---|---|---|---|---|---|---|',
		...latencies.flatMap((latency) => sizes('create').map((size) => `| ${count(size)} | ${answer(latency)} | ${cells(pointAt(find(r, 'create', 'erpNode', latency), size))} |`)),
		'',
		`Medians of ${r.runs} runs a size (fewer where ${r.runs} would take longer than ${r.sizeBudget_s} s); a run is stopped after ${r.runLimit_s} s. ` +
			`1-minute load during the runs: Return All ${loads(measuredOf('returnAll'))}, Create ${loads(measuredOf('create'))} ` +
			`(${r.machine.cores} cores, shared with other work: every figure above is inflated by it, the loopback ones most, since there n8n's CPU is the whole cost). ` +
			`The sandbox seeded ${seeded}.`,
		'',
		`Time per record at the largest size ÷ at the smallest above 1,000 (flat within ${r.tolerance}×): ${bends(r)}. ` +
			`n8n's peak RSS gained per record from the smallest to the largest size: ${r.series
				.filter((one) => one.rssPerRecord_kb !== undefined)
				.map((one) => `${one.operation === 'create' ? 'Create' : one.contender === 'erpNode' ? 'ERP node' : 'HTTP Request node'} ${answer(one.latency_ms)} ${one.rssPerRecord_kb} KB`)
				.join(', ')} ` +
			"(V8 keeps the heap it grew to between runs, so a size's peak is partly the size before it).",
	];
}

// A native stack frame in V8's out-of-memory report: " 2: 0x75968e node::OOMErrorHandler(…)".
const STACK_LINE = /^\s*\d+: 0x/;

const tryLabel = (attempt: LimitTry) => (attempt.saved ? 'saved (n8n default)' : 'not saved');

function opened(attempt: LimitTry): string {
	if (!attempt.opened) return '—';
	const o = attempt.opened;
	if (o.error) return `${o.error}${o.status ? ` (execution ${o.status})` : ''}`;
	return o.tooLargeToDisplay ? `without its data: too large to display (execution ${o.status})` : `${o.mb} MB in ${s(o.seconds ?? 0)} (execution ${o.status})`;
}

/** n8n's peak RSS per contact between the second-smallest and the largest unsaved size that completed (the smallest pays for n8n's first growth). */
function rssGrowthLine(r: Limit): string[] {
	const completed = r.tries.filter((t) => !t.saved && t.outcome === 'completed');
	const [from, to] = [completed[1], completed.at(-1)];
	if (!from || !to || from === to) return [];
	const kb = ((to.rssPeak_mb - from.rssPeak_mb) * 1024) / (to.records - from.records);
	return [`n8n's peak RSS grew by ${kb.toFixed(2)} KB per contact from ${count(from.records)} to ${count(to.records)} contacts (not saved).`, ''];
}

function limitTable(r: Limit): string[] {
	const oneLine = (text?: string) =>
		(text ?? '')
			.split('\n')
			.filter((line) => !STACK_LINE.test(line))
			.join(' / ')
			.replace(/\|/g, '\\|')
			.slice(0, 400);
	return [
		`| contacts | execution data | outcome | time | n8n RSS before → peak (last sampled) | the saved execution opened as the editor does | what n8n said |`,
		'|---|---|---|---|---|---|---|',
		...r.tries.map(
			(t) =>
				`| ${count(t.records)} | ${tryLabel(t)} | ${t.outcome} | ${s(t.seconds)} | ${t.rssBefore_mb} → ${t.rssPeak_mb} MB${t.rssLast_mb === undefined ? '' : ` (${t.rssLast_mb} MB)`} | ` +
				`${opened(t)} | ${oneLine(t.error) || '—'} |`,
		),
		'',
		...rssGrowthLine(r),
		`Each size tried once, on loopback, Return All at Concurrency ${r.concurrency}, ${r.tryLimit_s} s a try; 1-minute load ${r.tries.map((t) => t.loadAvg1).join(', ')}. ` +
			`The sandbox added ${r.seeding.map((seed) => `${count(seed.records)} contacts in ${s(seed.seconds)}`).join(', then ')} before each size.`,
	];
}

/** The example that reads by month beside one saved Return All of the same contacts. */
function inPartsTable(r: InParts): string[] {
	const { byMonth, returnAll } = r;
	return [
		`Beyond the limit: run ${r.date.slice(0, 16).replace('T', ' ')} UTC (\`npm run bench -- --only inParts\`), ${count(r.records)} contacts on loopback:`,
		'',
		'| | execution | time | n8n RSS before → peak | 1-minute load |',
		'|---|---|---|---|---|',
		`| \`examples/${r.example}\`, run as the editor runs it: ${byMonth.months} months, ${count(byMonth.counted ?? 0)} contacts counted | ${byMonth.status} | ` +
			`${s(byMonth.seconds)} | ${byMonth.rssBefore_mb} → ${byMonth.rssPeak_mb} MB | ${byMonth.loadAvg1} |`,
		`| one Return All, the execution saved (n8n's default) | ${returnAll.status} | ${s(returnAll.seconds)} | ${returnAll.rssBefore_mb} → ${returnAll.rssPeak_mb} MB | ${returnAll.loadAvg1} |`,
	];
}

/** bench/README.md's section on how cost grows with the work, followed by an empty line (nothing when neither part has run). */
export function growthSection(g: GrowthSummary): string[] {
	if (!g.scaling && !g.limit && !g.inParts) return [];
	return [
		'### How cost grows with the work',
		'',
		...(g.scaling ? [`Run ${g.scaling.date.slice(0, 16).replace('T', ' ')} UTC (\`npm run bench -- --only scaling\`), n8n ${g.scaling.n8n}:`, '', ...scalingTables(g.scaling)] : []),
		...(g.limit ? ['', `Above the curve: run ${g.limit.date.slice(0, 16).replace('T', ' ')} UTC (\`npm run bench -- --only limit\`):`, '', ...limitTable(g.limit)] : []),
		...(g.inParts ? ['', ...inPartsTable(g.inParts)] : []),
		'',
	];
}

const savedWell = (t: LimitTry) => t.outcome === 'completed' && t.opened?.status === 'success' && !t.opened.error;

/**
 * The three limits, each as the largest try within it and the first beyond it: the editor showing a saved
 * execution, n8n saving it, and n8n holding the records at all (not saved).
 */
export function limitsFound(r: Limit) {
	const saved = r.tries.filter((t) => t.saved);
	const notSaved = r.tries.filter((t) => !t.saved);
	const split = (tries: LimitTry[], within: (t: LimitTry) => boolean) => ({ largest: tries.filter(within).at(-1), beyond: tries.find((t) => !within(t)) });
	return {
		display: split(saved, (t) => savedWell(t) && !t.opened?.tooLargeToDisplay),
		save: split(saved, savedWell),
		memory: split(notSaved, (t) => t.outcome === 'completed'),
	};
}

/** What a try beyond a limit met, in words. */
function failure(attempt: LimitTry): string {
	const what = { completed: 'completed', failed: 'failed', timedOut: `was stopped after ${s(attempt.seconds)}`, n8nExited: "ended n8n's main process" }[attempt.outcome];
	const said = attempt.error ? ` (${attempt.error.split('\n').filter((line) => !STACK_LINE.test(line)).at(-1)?.trim().slice(0, 160)})` : '';
	return `${what} at ${attempt.rssLast_mb ?? attempt.rssPeak_mb} MB RSS${said}`;
}

/** "n8n's editor showed a saved execution of 200,000 contacts; at 400,000 …". */
function limitLines(r: Limit): string[] {
	const { display, save, memory } = limitsFound(r);
	const up = (t?: LimitTry) => (t ? count(t.records) : 'none');
	const lines: string[] = [];
	if (display.largest || display.beyond) {
		lines.push(
			`the editor opens a saved execution of up to ${up(display.largest)} contacts` +
				(display.largest?.opened?.mb ? ` (${display.largest.opened.mb} MB, ${s(display.largest.opened.seconds ?? 0)} to fetch)` : '') +
				(display.beyond?.opened?.tooLargeToDisplay
					? `; at ${count(display.beyond.records)} n8n sends it without its data, as too large to display (\`EXECUTIONS_DATA_MAX_DISPLAY_SIZE\`, 100 MB)`
					: display.beyond
						? `; at ${count(display.beyond.records)} the try ${failure(display.beyond)}`
						: ''),
		);
	}
	if (save.largest || save.beyond) {
		lines.push(
			`n8n saves the execution data (its default) of up to ${up(save.largest)} contacts` +
				(save.beyond ? `; at ${count(save.beyond.records)} the execution ${failure(save.beyond)}` : ''),
		);
	}
	lines.push(
		`with the execution data not saved, n8n holds up to ${up(memory.largest)} contacts` +
			(memory.largest ? ` (${s(memory.largest.seconds)}, ${memory.largest.rssPeak_mb} MB peak RSS)` : '') +
			(memory.beyond ? `; at ${count(memory.beyond.records)} the try ${failure(memory.beyond)}` : ''),
	);
	return lines;
}

/** docs/speed.md's lines on how cost grows: the curve in a short table, the limit, and what to do beyond it. */
export function growthSpeedLines(g: GrowthSummary): string[] {
	const r = g.scaling;
	if (!r) return [];
	const at = (operation: SeriesSummary['operation'], contender: SeriesSummary['contender'], latency: number, size: number) =>
		pointAt(find(r, operation, contender, latency), size);
	const time = (point?: PointSummary | GrowthGap) => {
		if (!point) return '—';
		return measured(point) ? `${s(point.seconds)} (${perThousand(point)} per 1,000)` : 'not measured';
	};
	const remote = Math.max(...r.series.map((one) => one.latency_ms));
	const sizes = [...new Set(r.series.flatMap((one) => one.points.map((p) => p.size)))].sort((a, b) => a - b);
	const allLoads = r.series.flatMap((one) => one.points.filter(measured).flatMap((p) => [p.runLoad.min, p.runLoad.max]));
	return [
		'',
		`**How cost grows with the records** (measured ${r.date.slice(0, 10)}; ${r.machine.cores} cores shared with other work, 1-minute load ` +
			`${Math.min(...allLoads)}–${Math.max(...allLoads)}, which inflates the loopback figures most; medians of ${r.runs} runs). ` +
			`Get Many with Return All at the default Concurrency ${r.concurrency.returnAll}, Create with Map Automatically at Concurrency ${r.concurrency.create}:`,
		'',
		`| records | Return All, ERP ${remote} ms away | Return All, loopback | n8n peak RSS (loopback) | HTTP Request node with pagination, ${remote} ms away | Create, ${remote} ms away | Create, loopback |`,
		'|---|---|---|---|---|---|---|',
		...sizes.map((size) => {
			const loopback = at('returnAll', 'erpNode', 0, size);
			return (
				`| ${count(size)} | ${time(at('returnAll', 'erpNode', remote, size))} | ${time(loopback)} | ${loopback && measured(loopback) ? `${loopback.rssPeak_mb} MB` : '—'} | ` +
				`${time(at('returnAll', 'httpRequestNode', remote, size))} | ${time(at('create', 'erpNode', remote, size))} | ${time(at('create', 'erpNode', 0, size))} |`
			);
		}),
		'',
		`Time per record at the largest size ÷ at 10,000 (flat within ${r.tolerance}×): ${bends(r)}.`,
		...(g.limit
			? [
					'',
					`Where Return All stops, with n8n ${g.limit.n8n}'s defaults (Node's heap limit, no \`--max-old-space-size\`), measured on ${g.limit.date.slice(0, 10)} on loopback: ` +
						`${limitLines(g.limit).join('; ')}.`,
				]
			: []),
		'',
		'Beyond that, or to keep n8n small: read only what the workflow needs (*Limit*, or *Filters* such as *Created After* ' +
			'for what changed since the last run), or read in parts in a sub-workflow. [`examples/contacts-by-month.json`](../examples/contacts-by-month.json) ' +
			'reads one month of contacts at a time (*Filters › Created After / Created Before*) in a sub-workflow that hands back one item, so ' +
			"n8n can free each month's contacts before it reads the next, as n8n's documentation on memory errors advises (a loop within one execution keeps every part in that execution's data)" +
			(g.inParts
				? `: it read ${count(g.inParts.records)} contacts in ${s(g.inParts.byMonth.seconds)} with n8n's RSS peaking at ${g.inParts.byMonth.rssPeak_mb} MB, ` +
					`where one saved Return All of them took ${s(g.inParts.returnAll.seconds)} and peaked at ${g.inParts.returnAll.rssPeak_mb} MB ` +
					`(${Math.round((100 * g.inParts.byMonth.rssPeak_mb) / g.inParts.returnAll.rssPeak_mb)}% of its peak in ` +
					`${(g.inParts.byMonth.seconds / g.inParts.returnAll.seconds).toFixed(1)}× its time; measured on ${g.inParts.date.slice(0, 10)}). `
				: '. ') +
			'[bench/README.md](../bench/README.md#how-cost-grows-with-the-work) has every figure.',
	];
}
