import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { remotesOf, type RemoteSummary, type Summary } from '../summary';
import { growthSection } from './growth';
import { loopbackSection } from './loopback';
import { profileSection } from './profile';
import { remoteSection } from './remote';
import { speedSection } from './speed';
import { DEFAULT_TRANSPORT_OPTIONS } from '../../nodes/shared/transport/types';
import { withBlock } from '../../tooling/host/results';

const RESULTS = { start: '<!-- bench:results:start (written by npm run bench) -->', end: '<!-- bench:results:end -->' };
const SPEED = { start: '<!-- bench:speed:start (written by npm run bench from bench/summary.json) -->', end: '<!-- bench:speed:end -->' };

const ms = (seconds: number, requests: number) => `${((seconds * 1000) / requests).toFixed(2)} ms`;

/** Why the loopback ratios against the raw client measure n8n, told with this run's figures. */
function n8nBound(r: Summary): string[] {
	const { listAll, bulkCreate } = r.workloads;
	const pages = Math.ceil(listAll.records / 100);
	const slowest = remotesOf(r).at(-1);
	return [
		'### Why the loopback ratios are n8n-bound',
		'',
		`On loopback the sandbox spends ${listAll.sandboxPage_ms} ms on a page, and the raw client needs ${ms(listAll.rawClient_s, pages)} per page ` +
			`(one after the other) and ${ms(bulkCreate.rawClient_s, bulkCreate.items)} per create (${bulkCreate.concurrency} in flight). ` +
			`n8n's main process alone spends ${listAll.n8nCpuPerRequest_ms.erpNode} ms of CPU per page the ERP node reads and ` +
			`${bulkCreate.n8nCpuPerRequest_ms.erpNode} ms per contact it creates (the HTTP Request node: ${bulkCreate.n8nCpuPerRequest_ms.httpRequestNode} ms), ` +
			'on its one thread: the request helper every community node must use, the credential, the execution around the node. ' +
			'So on loopback the ratios against the raw client measure that cost, whatever the node does, and Concurrency beyond a few requests ' +
			'helps little there. Against a remote ERP the waiting dominates and the same cost hides behind it' +
			(slowest
				? `: at ${slowest.latency_ms} ms the ERP node takes ${slowest.bulkCreate.ratios.erpNodeVsRawClient}× the raw client's time on bulkCreate ` +
					`and ${slowest.listAll.ratios.erpNodeVsRawClient}× on listAll, at the same requests at once.`
				: '.'),
		'',
		"What the ERP node takes beyond the raw client against a remote ERP is about n8n's CPU for its requests (the requests times the " +
			`profile's CPU per request below): ${remotesOf(r).flatMap((remote) => [beyondRaw(r, remote, 'listAll'), beyondRaw(r, remote, 'bulkCreate')]).join('; ')}.`,
	];
}

/** The ERP node's time beyond the raw client's, beside its requests times n8n's CPU per request from the profile. */
function beyondRaw(r: Summary, remote: RemoteSummary, workload: 'listAll' | 'bulkCreate'): string {
	const result = remote[workload];
	const cpu_s = (result.requests * r.profile[workload].perRequest_ms.total) / 1000;
	return `${workload} at ${remote.latency_ms} ms ${(result.erpNode_s - result.rawClient_s).toFixed(2)} s beyond, ${cpu_s.toFixed(2)} s of CPU`;
}

function resultsBlock(r: Summary): string {
	const m = r.machine;
	return [
		`Run ${r.date.slice(0, 16).replace('T', ' ')} UTC: n8n ${r.n8n} on Node ${m.n8nNode} (bench and sandbox on Node ${m.benchNode}),`,
		`${m.cpu}, ${m.cores} cores, ${m.memory_gb} GB, ${m.os}; 1-minute load ${m.loadAvg.start} at the start, ${m.loadAvg.end ?? '?'} at the end.`,
		`Medians of ${r.runs} runs after a warm-up; contenders alternate.`,
		'',
		...remoteSection(r),
		'',
		...n8nBound(r),
		'',
		...profileSection(r),
		'',
		...loopbackSection(r),
		'',
		...growthSection(r),
		'### Targets',
		'',
		'| target | measured | met |',
		'|---|---|---|',
		...r.targets.map((t) => `| ${t.workload}: ${t.goal} | ${t.value} | ${t.met ? 'yes' : '**no**'} |`),
	].join('\n');
}

/** The results block of bench/README.md and the figures of docs/speed.md, from `results`. */
export function readmeBlocks(results: Summary): Array<{ file: string; markers: { start: string; end: string }; body: string }> {
	return [
		{ file: 'bench/README.md', markers: RESULTS, body: resultsBlock(results) },
		{ file: 'docs/speed.md', markers: SPEED, body: speedSection(results, DEFAULT_TRANSPORT_OPTIONS.concurrency).join('\n') },
	];
}

/** Rewrites both blocks in the files under `repoRoot`, keeping the text around them. */
export function writeReadmes(repoRoot: string, results: Summary): void {
	for (const { file, markers, body } of readmeBlocks(results)) {
		const target = path.join(repoRoot, file);
		writeFileSync(target, withBlock(readFileSync(target, 'utf8'), markers, body));
	}
}
