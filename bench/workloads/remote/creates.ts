import { REMOTE } from '../../config';
import { contactRows, createContact, tally } from '../../contacts';
import type { BenchContext } from '../../context';
import { floorCreate, floorCreateAndSend } from '../../floor/workflows';
import { observingInFlight } from '../../inFlight';
import { deploy, expectCount, runWorkflow } from '../../n8nRun';
import {
	erpCreate,
	erpCreateAndSend,
	httpCreate,
	httpCreateAndSend,
	type Batching,
	type BenchWorkflow,
} from '../../workflows';
import { compareContenders, type RemoteWorkloadResult } from './compare';

type Outcome = { seconds: number; count?: number; answer?: unknown };

/** What one create workload needs: its rows, how to check the sandbox after a run, and each contender. */
interface CreateWorkload {
	name: string;
	items: number;
	requestsPerItem: number;
	/** After the sandbox is reset, before the latency is set: the rows of this run, and the check of the result. */
	prepare(): Promise<{ rows: object[]; check(): Promise<string | undefined> }>;
	erp(concurrency: number): BenchWorkflow;
	floor(concurrency: number): BenchWorkflow;
	http(batching?: Batching): BenchWorkflow;
	raw: { path: string; then?: string };
}

/** One contender's run: a reset sandbox answering `latencyMs` late, the run, and the sandbox's own tally. */
function runner(ctx: BenchContext, latencyMs: number, workload: CreateWorkload, contender: string, create: (rows: object[]) => Promise<Outcome>) {
	return async () => {
		await ctx.sandbox.reset();
		const { rows, check } = await workload.prepare();
		await ctx.sandbox.setFaults({ latencyMs });
		const sample = await observingInFlight(ctx, latencyMs, async () => {
			const run = await create(rows);
			expectCount(contender, run, workload.items);
			return { seconds: run.seconds };
		});
		const wrong = await check();
		if (wrong) throw new Error(`${workload.name}, ${contender}: ${wrong}: its figure would mean nothing`);
		return sample;
	};
}

/** A create workload against a sandbox answering `latencyMs` late: the contenders compared as in compare.ts. */
export async function compareCreates(ctx: BenchContext, latencyMs: number, workload: CreateWorkload): Promise<RemoteWorkloadResult> {
	ctx.log(`${workload.name} at ${latencyMs} ms: ${workload.items} items; the ERP node's Concurrency first`);
	const inN8n = async (contender: string, workflow: BenchWorkflow) => {
		const deployed = await deploy(ctx.n8n, workflow);
		return runner(ctx, latencyMs, workload, contender, (rows) => runWorkflow(ctx.n8n, deployed, { rows }));
	};
	return await compareContenders(
		ctx,
		{ items: workload.items, requests: workload.items * workload.requestsPerItem, concurrencies: REMOTE.writeConcurrencies },
		(concurrency) => inN8n('erpNode', workload.erp(concurrency)),
		async (concurrency) => ({
			floor: await inN8n('floor', workload.floor(concurrency)),
			httpRequestNodeBatching: await inN8n('httpRequestNodeBatching', workload.http({ size: concurrency, intervalMs: latencyMs })),
			httpRequestNode: await inN8n('httpRequestNode', workload.http()),
			rawClient: runner(ctx, latencyMs, workload, 'rawClient', (rows) =>
				ctx.raw.run({ kind: 'create', api: ctx.api, rows, concurrency, ...workload.raw }),
			),
		}),
	);
}

/** bulkCreate: 1,000 contacts, one request each. */
export const bulkCreateWorkload = (ctx: BenchContext): CreateWorkload => ({
	name: 'bulkCreate',
	items: REMOTE.bulkItems,
	requestsPerItem: 1,
	async prepare() {
		const { tag, rows } = contactRows('remote-bulk', this.items);
		const check = async () => {
			const held = await tally(ctx.sandbox, tag, this.items);
			const exact = held.records === this.items && !held.missing && !held.duplicates;
			return exact ? undefined : `the sandbox holds ${held.records} contacts (${held.missing} missing, ${held.duplicates} twice) instead of ${this.items}`;
		};
		return { rows, check };
	},
	erp: (concurrency) => erpCreate(ctx.credential, concurrency, 'auto'),
	floor: (concurrency) => floorCreate(ctx.credential, concurrency),
	http: (batching) => httpCreate(ctx.credential, ctx.api.baseUrl, { batching }),
	raw: { path: '/contacts' },
});

/** mixed: 500 invoices, each created and then sent: two dependent requests per item. */
export const mixedWorkload = (ctx: BenchContext): CreateWorkload => ({
	name: 'mixed',
	items: REMOTE.mixedItems,
	requestsPerItem: 2,
	async prepare() {
		// Sending needs a recipient: the contact's e-mail.
		const contactId = await createContact(ctx.api, contactRows('remote-mixed', 1).rows[0]);
		const rows = Array.from({ length: this.items }, (_, i) => ({
			contact_id: contactId,
			lines: [{ description: `Bench service ${i}`, quantity: 1, unit_price: 100 + i }],
		}));
		const check = async () => {
			const invoices = await ctx.sandbox.records('invoices');
			const sent = invoices.filter((invoice) => invoice.status === 'sent').length;
			return sent === this.items && invoices.length === this.items ? undefined : `the sandbox holds ${invoices.length} invoices, ${sent} of them sent, instead of ${this.items} sent`;
		};
		return { rows, check };
	},
	erp: (concurrency) => erpCreateAndSend(ctx.credential, concurrency),
	floor: (concurrency) => floorCreateAndSend(ctx.credential, concurrency),
	http: (batching) => httpCreateAndSend(ctx.credential, ctx.api.baseUrl, batching),
	raw: { path: '/invoices', then: 'send' },
});
