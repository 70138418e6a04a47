import type { Invoice } from '../../sandbox/types';
import { triggerBranch } from '../../tooling/host/confirmingTrigger';
import { erpApi } from '../../tooling/host/erpApi';
import { erpTriggers, erpTriggerType, readExamples, triggerUrl } from '../../tooling/host/examples';
import { atLeast, nodeOutput, waitForExecutions } from '../../tooling/host/executions';
import { startOwnN8n, type OwnN8n } from '../../tooling/host/ownN8n';
import { useSession } from './setup/session';
import type { WorkflowNode } from '../../tooling/host/types';
import { chain, erpTriggerNode, node } from '../../tooling/host/workflows';
import { paidEvent, postDelivery } from '../../tooling/host/triggers';
import { sentInvoice } from './support';

// A delivery and its resend at the same moment. n8n's Remove Duplicates keeps a workflow's keys in one database row
// that each execution reads, extends and writes back, with no lock: executions running side by side let a key through
// twice, or overwrite each other's keys (docs/events-you-can-trust.md has the measurements). With production
// executions one at a time (N8N_CONCURRENCY_PRODUCTION_LIMIT=1, what the docs advise for a workflow that must act
// once), each acts once.

const ACT = 'Act On Event';
const PAIRS = 8;

const session = useSession();
let own: OwnN8n;
let workflowId: string;
let url: string;

beforeAll(async () => {
	own = await startOwnN8n(session.ctx, { N8N_CONCURRENCY_PRODUCTION_LIMIT: '1' });
	const once = readExamples()
		.flatMap((e) => e.workflow.nodes)
		.find((n) => n.type === 'n8n-nodes-base.removeDuplicates') as WorkflowNode;
	const trigger = { ...erpTriggerNode({ events: ['invoice.paid'] }, own.credential), typeVersion: 2 };
	const workflow = await own.client.createActiveWorkflow(
		chain('e2e: a delivery and its resend at once', [trigger, { ...once, position: [220, 0] }, node(ACT, 'n8n-nodes-base.noOp', 1, {}, { position: [440, 0] })]),
	);
	workflowId = workflow.id;
	url = triggerUrl(own.client.baseUrl, erpTriggers(workflow)[0], await erpTriggerType(own.client));
});

afterAll(async () => {
	await own?.dispose();
});

test(`production executions one at a time: ${PAIRS} real invoice.paid deliveries, each sent twice at the same moment, each act once`, async () => {
	const invoices: Invoice[] = [];
	for (let i = 0; i < PAIRS; i++) {
		const invoice = await sentInvoice(session);
		await erpApi(session.ctx, 'POST', `/invoices/${invoice.id}/mark-paid`, { payment_method: 'bank_transfer', reference: `SAME-${i}` });
		invoices.push(invoice);
	}
	for (const invoice of invoices) {
		const body = paidEvent(invoice);
		const send = () => postDelivery(url, body, `same-${invoice.id}`);
		const answers = await Promise.all([send(), send()]);
		expect(answers.map((a) => a.status)).toEqual([200, 200]);
	}
	const executions = await waitForExecutions(own.client, workflowId, atLeast(2 * PAIRS), 180_000);
	expect(executions.map((e) => e.status)).toEqual(executions.map(() => 'success'));
	const started = executions.flatMap((e) => triggerBranch(e, 0).map((item) => item.data.invoice_id));
	expect(started.sort()).toEqual(invoices.flatMap((i) => [i.id, i.id]).sort());
	const acted = executions.flatMap((e) => nodeOutput(e, ACT).map((item) => (item.data as { invoice_id: number }).invoice_id));
	expect(acted.sort()).toEqual(invoices.map((i) => i.id).sort());
}, 300_000);
