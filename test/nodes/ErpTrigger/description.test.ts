import type { INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ErpApi } from '../../../credentials/ErpApi.credentials';
import { ErpTrigger } from '../../../nodes/ErpTrigger/ErpTrigger.node';
import actionCodex from '../../../nodes/Erp/Erp.node.json';
import codex from '../../../nodes/ErpTrigger/ErpTrigger.node.json';
import { ensureExpressionEngine } from '../../../tooling/harness/environment';
import { buildWorkflow } from '../../../tooling/harness/workflow';

const { description } = new ErpTrigger();
const property = (name: string) => description.properties.find((p) => p.name === name) as INodeProperties;

describe('ERP Trigger description', () => {
	it('is a trigger with one POST webhook that answers webhookResponse (responseData: "")', () => {
		expect(description).toMatchObject({ name: 'erpTrigger', displayName: 'ERP Trigger', group: ['trigger'], inputs: [] });
		expect(description.usableAsTool).toBeUndefined();
		expect(description.webhooks).toEqual([
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: '', path: 'webhook' },
		]);
	});

	it('tells the user where the production URL goes and where n8n shows it, naming no button', () => {
		expect(description.properties[0]).toMatchObject({ type: 'notice', name: 'notice' });
		const notice = description.properties[0].displayName;
		// Section and URL names that n8n 2.41 and 1.123 both show; their buttons differ (Execute step, Listen for test event).
		expect(notice).toMatch(/Production URL \(under Webhook URLs\) in the ERP's webhook settings/);
		expect(notice).toMatch(/Test URL/);
		expect(notice).not.toMatch(/click|button|Listen for test event|Execute step|activate|above/i);
	});

	// Option order and the "Whether" of boolean descriptions: n8n's node lint, on what ships.
	it('offers the six events of the API document and All Events, which also starts it for event names a later ERP version adds', () => {
		const options = property('events').options as INodePropertyOptions[];
		expect(options.map((o) => o.value).sort()).toEqual(['*', 'contact.created', 'contact.updated', 'employee.hired', 'invoice.overdue', 'invoice.paid', 'product.low_stock']);
		expect(property('events')).toMatchObject({ type: 'multiOptions', required: true, default: [] });

		const allEvents = options.find((o) => o.value === '*');
		expect(allEvents?.name).toBe('All Events');
		expect(allEvents?.description).toMatch(/including event names not listed here/);
		expect(property('events').description).toMatch(/All Events also starts it for event names a later ERP version adds/);
	});

	// When it is shown: ERP Trigger versions, below.
	it('keeps verification off by default, and requires the ERP API credential when it shows it', () => {
		expect(property('verification').default).toBe('none');
		expect(description.credentials).toEqual([expect.objectContaining({ name: 'erpApi', required: true })]);
		expect(new ErpTrigger()).not.toHaveProperty('methods');
	});

	it('keeps the secret out of node parameters', () => {
		expect(JSON.stringify(description.properties)).not.toMatch(/"name":"(secret|webhookSecret)"/);
	});

	it('says in one sentence how to act once per event (Remove Duplicates on eventKey), and offers a Delivery ID Header naming the headers it already reads', () => {
		const notice = property('deliveryKeyNotice');
		const header = (property('options').options as INodeProperties[]).find((o) => o.name === 'deliveryIdHeader');

		expect(notice).toMatchObject({ type: 'notice' });
		// What Remove Duplicates does with it, not an order to add one: the workflow may have it already.
		expect(notice.displayName).toMatch(/^To act once per event, .*Remove Duplicates \(Remove Items Processed in Previous Executions, Scope: Workflow\) on the item's eventKey\.$/);
		expect(notice.displayName).not.toContain('{{');
		expect(notice.displayName).not.toMatch(/\badd\b/i);
		expect(header).toMatchObject({ displayName: 'Delivery ID Header', type: 'string', default: '' });
		expect(header?.description).toContain('X-Erp-Delivery, X-Delivery-Id, X-Event-Id, X-Webhook-Id, Webhook-Id, Idempotency-Key');
	});

	it('has a codex pointing at its documentation page, without subcategories (as in the action node’s codex)', () => {
		expect(codex.categories).toEqual(expect.arrayContaining(['Finance & Accounting', 'Sales']));
		expect(codex.resources).toEqual({
			primaryDocumentation: [{ url: 'https://github.com/n8n-nodes-erp/n8n-nodes-erp/blob/main/docs/triggers.md#erp-trigger' }],
			credentialDocumentation: [{ url: 'https://github.com/n8n-nodes-erp/n8n-nodes-erp#credentials' }],
		});
		expect(codex).not.toHaveProperty('subcategories');
		expect(actionCodex).not.toHaveProperty('subcategories');
	});
});

describe('ERP Trigger subtitle, as the editor evaluates it', () => {
	beforeAll(async () => {
		await ensureExpressionEngine();
	});

	const subtitle = (events: string[]) => {
		const { workflow, node } = buildWorkflow({ nodeType: new ErpTrigger(), parameters: { events } });
		return workflow.expression.getSimpleParameterValue(node, description.subtitle, 'internal', {});
	};

	it.each([
		[['*'], 'All Events'],
		[['invoice.paid', '*'], 'All Events'],
		[['invoice.paid', 'contact.created'], 'invoice.paid, contact.created'],
		[['employee.hired'], 'employee.hired'],
		[[], ''],
	])('shows %j as %j', (events, shown) => {
		expect(subtitle(events)).toBe(shown);
	});
});

describe('ERP API credential: the one credential, with the trigger’s secret', () => {
	const { properties } = new ErpApi();

	// Its fields in order: test/repo/package/package.test.ts.
	it('has an optional Webhook Signing Secret, stored as a password, after the Base URL and the API Token', () => {
		const secret = properties[2];
		expect(secret).toMatchObject({ displayName: 'Webhook Signing Secret', type: 'string', typeOptions: { password: true }, default: '' });
		expect(secret.required).toBeUndefined();
		expect(secret.description).toMatch(/ERP Trigger/);
	});
});

// Version 2's Confirm With the ERP as n8n-workflow reads the description: the outputs (an expression), the
// credential and the parameters each version shows.

const nodeType = new ErpTrigger();

/** The node as a workflow loads it: parameters with their defaults, for the given version. */
const loaded = (typeVersion: number, parameters: INodeParameters = {}) =>
	buildWorkflow({ nodeType, typeVersion, parameters: { events: ['*'], ...parameters } });

const outputs = (typeVersion: number, parameters?: INodeParameters) => {
	const { workflow, node } = loaded(typeVersion, parameters);
	return NodeHelpers.getNodeOutputs(workflow, node, description);
};

const shownParameters = (typeVersion: number, parameters?: INodeParameters) => {
	const { node } = loaded(typeVersion, parameters);
	return description.properties.filter((p) => NodeHelpers.displayParameter(node.parameters, p, node, description)).map((p) => p.name);
};

const credentialShown = (typeVersion: number, parameters?: INodeParameters) => {
	const { node } = loaded(typeVersion, parameters);
	return NodeHelpers.displayParameter(node.parameters, description.credentials?.[0] ?? { name: '' }, node, description);
};

describe('ERP Trigger versions', () => {
	beforeAll(async () => {
		await ensureExpressionEngine();
	});

	it('has versions 1 and 2; a new node gets 2', () => {
		expect(description.version).toEqual([1, 2]);
		expect(description.defaultVersion).toBe(2);
	});

	it('version 2 with Confirm With the ERP on (its default) has two outputs, Confirmed and Unconfirmed; version 1, and 2 with it off, one', () => {
		expect(outputs(2)).toEqual([
			{ type: 'main', displayName: 'Confirmed' },
			{ type: 'main', displayName: 'Unconfirmed' },
		]);
		expect([outputs(1), outputs(2, { confirm: false })]).toEqual([['main'], ['main']]);
	});

	it('version 1 shows what it showed, and keeps its Verification None value and default', () => {
		expect(shownParameters(1)).toEqual(['notice', 'events', 'verification', 'deliveryKeyNotice', 'options']);
		const { node } = loaded(1);
		expect(node.parameters).toMatchObject({ events: ['*'], verification: 'none', options: {} });
		expect(node.parameters).not.toHaveProperty('confirm');
	});

	it('version 2 shows Confirm With the ERP (on), its notice, and Events Not in the List when All Events is chosen', () => {
		expect(shownParameters(2)).toEqual(['notice', 'events', 'confirm', 'confirmNotice', 'otherEvents', 'verification', 'deliveryKeyNotice', 'options']);
		expect(shownParameters(2, { events: ['invoice.paid'] })).not.toContain('otherEvents');
		expect(shownParameters(2, { confirm: false })).toEqual(['notice', 'events', 'confirm', 'verification', 'deliveryKeyNotice', 'options']);
		const { node } = loaded(2);
		expect(node.parameters).toMatchObject({ confirm: true, otherEvents: 'notConfirmed', verification: 'off' });
	});

	it('asks for the ERP API credential in version 1 with verification only, and always in version 2', () => {
		expect([credentialShown(1), credentialShown(1, { verification: 'hmacSha256' }), credentialShown(1, { verification: 'sharedSecret' })]).toEqual([false, true, true]);
		for (const confirm of [true, false]) {
			for (const verification of ['off', 'hmacSha256', 'sharedSecret']) {
				expect({ confirm, verification, shown: credentialShown(2, { confirm, verification }) }).toEqual({ confirm, verification, shown: true });
			}
		}
	});

	it('names Confirm With the ERP (on by default) and its options with their defaults', () => {
		expect(property('confirm')).toMatchObject({ displayName: 'Confirm With the ERP', type: 'boolean', default: true });
		const options = property('options').options as INodeProperties[];
		expect(options.find((o) => o.name === 'confirmationWait')).toMatchObject({ type: 'number', default: 3 });
		expect(options.find((o) => o.name === 'dataAtTopLevel')).toMatchObject({ type: 'boolean', default: false });
	});
});
