import type { Employee } from '../../sandbox/types';
import type { Delivery } from '../../sandbox/webhooks';
import { erpTriggerType, readExamples, triggerUrl } from '../../tooling/host/examples';
import type { Execution, WorkflowNode } from '../../tooling/host/types';
import { erpApi } from '../../tooling/host/erpApi';
import { fieldsParameter } from '../../tooling/host/fields';
import { allExecutions, atLeast, nodeOutput, waitForExecutions } from '../../tooling/host/executions';
import { useSession } from './setup/session';
import { chain, erpNode, erpTriggerNode } from '../../tooling/host/workflows';
import { postDelivery } from '../../tooling/host/triggers';
import { deliveredTo } from './support';

// An ERP may deliver one event twice (a retry after a timeout, a resend). ERP Trigger → Remove Duplicates as the
// examples ship it (on {{ $json.eventKey }}) → ERP: Create Contact must create one contact per hire, however often it arrives.

const HEX_SHA256 = /^[0-9a-f]{64}$/;

describe('a delivery sent twice to an active workflow in a real n8n creates one contact', () => {
	const session = useSession();
	let workflowId: string;
	let url: string;
	let subscriptionId: number;

	/** The Remove Duplicates node exactly as the examples ship it. */
	const oncePerDelivery = (): WorkflowNode => {
		const nodes = readExamples().flatMap((example) => example.workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.removeDuplicates'));
		expect(nodes.length).toBeGreaterThan(0);
		return { ...nodes[0], position: [120, 0] };
	};

	beforeAll(async () => {
		const trigger = erpTriggerNode({ events: ['employee.hired'] });
		const create = erpNode(
			{
				resource: 'contact',
				operation: 'create',
				columns: fieldsParameter('contact', {
					first_name: '={{ $json.data.first_name }}',
					last_name: '={{ $json.data.last_name }}',
					email: '={{ $json.data.email }}',
					notes: '={{ "delivery " + $("ERP Trigger").item.json.deliveryKey }}',
				}),
			},
			session.ctx.credentials.good,
			'Create Contact',
		);
		const workflow = await session.n8n.createActiveWorkflow(chain('e2e duplicates: one contact per hire', [trigger, oncePerDelivery(), create]));
		workflowId = workflow.id;
		url = triggerUrl(session.ctx.n8nUrl, trigger, await erpTriggerType(session.n8n));
		subscriptionId = (await session.sandbox.addWebhook({ url, events: ['employee.hired'] })).id;
	});

	// Later test files hire people too: their deliveries must not reach this workflow and create contacts while
	// another test counts the ERP's requests.
	afterAll(async () => {
		await session.sandbox.removeWebhook(subscriptionId);
		await session.n8n.deactivateWorkflow(workflowId);
		await session.sandbox.resetVariants();
	});

	/** Hires someone in the ERP and returns the employee and the sandbox's finished delivery of employee.hired to our URL. */
	const hire = async (firstName: string): Promise<{ employee: Employee; delivery: Delivery }> => {
		const email = `${firstName.toLowerCase()}.${Date.now()}@northwind-industries.com`;
		const act = () => erpApi<Employee>(session.ctx, 'POST', '/employees', { first_name: firstName, last_name: 'Duplicate-Test', email });
		const { result: employee, delivery } = await deliveredTo(session.sandbox, url, 'employee.hired', act);
		return { employee, delivery };
	};

	/** What an ERP's resend does: the same body once more, with the id header the ERP sent (if any). */
	const resend = async (delivery: Delivery, deliveryId?: string) => expect((await postDelivery(url, delivery.body as object, deliveryId)).status).toBe(200);

	const executions = async (count: number): Promise<Execution[]> => {
		const finished = await waitForExecutions(session.n8n, workflowId, atLeast(count));
		expect(finished).toHaveLength(count);
		expect(finished.map((e) => e.status)).toEqual(Array(count).fill('success'));
		return finished;
	};
	const contactsWith = async (email: string) => (await session.sandbox.records('contacts')).filter((c) => c.email === email);

	test('X-Erp-Delivery: the resend (same body, same id) passes nothing on; the next hire creates its own contact', async () => {
		const { employee, delivery } = await hire('Amara');
		const [first] = await executions(1);
		await resend(delivery, delivery.id);
		const [, repeated] = await executions(2);

		expect(nodeOutput(first, 'ERP Trigger')).toEqual([{ ...(delivery.body as object), deliveryKey: delivery.id, eventKey: expect.stringMatching(HEX_SHA256) }]);
		expect(nodeOutput(first, 'Once per Event')).toHaveLength(1);
		expect(nodeOutput(repeated, 'ERP Trigger')[0].deliveryKey).toBe(delivery.id);
		expect(nodeOutput(repeated, 'Once per Event')).toEqual([]);
		expect(repeated.data?.resultData.runData['Create Contact']).toBeUndefined();
		expect(await contactsWith(employee.email)).toEqual([
			expect.objectContaining({ first_name: 'Amara', last_name: 'Duplicate-Test', notes: `delivery ${delivery.id}` }),
		]);

		const next = await hire('Bilal');
		const [, , third] = await executions(3);
		expect(nodeOutput(third, 'Once per Event')).toEqual([expect.objectContaining({ deliveryKey: next.delivery.id })]);
		expect(await contactsWith(next.employee.email)).toHaveLength(1);
	});

	test('no-delivery-id (an ERP without id headers): the same body again is recognised by its digest', async () => {
		await session.sandbox.setVariants(['no-delivery-id']);
		const before = (await allExecutions(session.n8n, workflowId)).length;
		const { employee, delivery } = await hire('Chiara');
		const [first] = (await executions(before + 1)).slice(before);
		await resend(delivery);
		const [repeated] = (await executions(before + 2)).slice(before + 1);
		const key = nodeOutput(first, 'ERP Trigger')[0].deliveryKey;

		expect(key).toMatch(HEX_SHA256);
		expect(nodeOutput(repeated, 'ERP Trigger')[0].deliveryKey).toBe(key);
		expect(nodeOutput(first, 'Once per Event')).toHaveLength(1);
		expect(nodeOutput(repeated, 'Once per Event')).toEqual([]);
		expect(await contactsWith(employee.email)).toHaveLength(1);

		const next = await hire('Dmitri');
		const [third] = (await executions(before + 3)).slice(before + 2);
		expect(nodeOutput(third, 'Once per Event')).toHaveLength(1);
		expect(nodeOutput(third, 'ERP Trigger')[0].deliveryKey).not.toBe(key);
		expect(await contactsWith(next.employee.email)).toHaveLength(1);
	});
});
