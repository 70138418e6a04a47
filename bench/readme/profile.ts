import { CATEGORIES } from '../profile/categories';
import type { Summary } from '../summary';

const ms = (value: number) => `${value.toFixed(3)} ms`;

/** The CPU profile's table: n8n's main process per request, by where the time goes. */
export function profileSection(r: Summary): string[] {
	const { listAll, bulkCreate } = r.profile;
	const loopback = r.workloads;
	const pages = Math.ceil(loopback.listAll.records / 100);
	return [
		`A V8 CPU profile of n8n's main process over ${listAll.runs} runs of each (\`bench/profile\`, taken by \`npm run bench\` after the timed runs), per request on n8n's one thread:`,
		'',
		`| | listAll, per page (Concurrency ${listAll.concurrency}) | bulkCreate, per create (Map Automatically, Concurrency ${bulkCreate.concurrency}) |`,
		'|---|---|---|',
		...CATEGORIES.map(({ name, label }) => `| ${label} | ${ms(listAll.perRequest_ms[name])} | ${ms(bulkCreate.perRequest_ms[name])} |`),
		`| **n8n, in all** | **${ms(listAll.perRequest_ms.total)}** | **${ms(bulkCreate.perRequest_ms.total)}** |`,
		`| the raw client, its whole round trip (median run) | ${ms((loopback.listAll.rawClient_s * 1000) / pages)} (one page after the other) | ` +
			`${ms((loopback.bulkCreate.rawClient_s * 1000) / loopback.bulkCreate.items)} (${loopback.bulkCreate.concurrency} in flight) |`,
	];
}
