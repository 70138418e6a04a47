import { PAGE_SIZE, REMOTE } from '../../config';
import type { BenchContext } from '../../context';
import { floorListAll } from '../../floor/workflows';
import { observingInFlight } from '../../inFlight';
import { deploy, expectCount, runWorkflow } from '../../n8nRun';
import { erpListAll, httpListAll, httpListPages, type BenchWorkflow } from '../../workflows';
import { compareContenders, type RemoteWorkloadResult } from './compare';

/** Every contact of a 5,000-contact ERP that answers each request `latencyMs` late, 100 per page. */
export async function remoteListAll(ctx: BenchContext, latencyMs: number): Promise<RemoteWorkloadResult> {
	const records = REMOTE.listRecords;
	const pages = Math.ceil(records / PAGE_SIZE);
	ctx.log(`listAll at ${latencyMs} ms: ${records} contacts, ${pages} pages; the ERP node's Concurrency first`);
	await ctx.sandbox.reset();
	await ctx.sandbox.seed({ contacts: records });
	await ctx.sandbox.setFaults({ latencyMs });

	const observed = (contender: string, count: () => Promise<{ seconds: number; count?: number; answer?: unknown }>) => () =>
		observingInFlight(ctx, latencyMs, async () => {
			const run = await count();
			expectCount(contender, run, records);
			return { seconds: run.seconds };
		});
	const inN8n = async (contender: string, workflow: BenchWorkflow, body: object = {}) => {
		const deployed = await deploy(ctx.n8n, workflow);
		return observed(contender, () => runWorkflow(ctx.n8n, deployed, body));
	};
	const pageNumbers = { pages: Array.from({ length: pages }, (_, i) => ({ page: i + 1 })) };

	return await compareContenders(
		ctx,
		{ items: records, requests: pages, concurrencies: REMOTE.listConcurrencies },
		(concurrency) => inN8n('erpNode', erpListAll(ctx.credential, concurrency)),
		async (concurrency) => ({
			floor: await inN8n('floor', floorListAll(ctx.credential, concurrency)),
			httpRequestNodeBatching: await inN8n(
				'httpRequestNodeBatching',
				httpListPages(ctx.credential, ctx.api.baseUrl, PAGE_SIZE, { size: concurrency, intervalMs: latencyMs }),
				pageNumbers,
			),
			httpRequestNode: await inN8n('httpRequestNode', httpListAll(ctx.credential, ctx.api.baseUrl, PAGE_SIZE)),
			rawClient: observed('rawClient', () => ctx.raw.run({ kind: 'listAll', api: ctx.api, perPage: PAGE_SIZE, concurrency })),
		}),
	);
}
