import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ErpPollingTrigger } from '../../../nodes/ErpPollingTrigger/ErpPollingTrigger.node';
import codex from '../../../nodes/ErpPollingTrigger/ErpPollingTrigger.node.json';
import { ErpTrigger } from '../../../nodes/ErpTrigger/ErpTrigger.node';
import packageJson from '../../../package.json';

const { description } = new ErpPollingTrigger();
const properties = (name: string) => description.properties.filter((p) => p.name === name);
const optionValues = (property: INodeProperties) => (property.options as INodePropertyOptions[]).map((o) => o.value);

describe('ERP Polling Trigger description', () => {
	it("is a polling trigger (n8n adds Poll Times) with the ERP API credential, in the package's node list", () => {
		expect(description).toMatchObject({ name: 'erpPollingTrigger', displayName: 'ERP Polling Trigger', group: ['trigger'], polling: true, inputs: [] });
		expect(description.credentials).toEqual([{ name: 'erpApi', required: true }]);
		expect(packageJson.n8n.nodes).toContain('dist/nodes/ErpPollingTrigger/ErpPollingTrigger.node.js');
		expect(codex.node).toBe('n8n-nodes-erp.erpPollingTrigger');
	});

	it('says when to pick it and when the webhook trigger, in both nodes', () => {
		expect(description.description).toMatch(/without a public URL.*catches up after downtime/);
		expect(description.properties[0]).toMatchObject({ type: 'notice' });
		expect(description.properties[0].displayName).toMatch(/works wherever n8n runs.*For instant events.*use the ERP Trigger/);
		expect(new ErpTrigger().description.description).toMatch(/the ERP must reach this n8n; otherwise use ERP Polling/);
	});

	it('offers per resource only what it can watch: stock for products, updates not for employees', () => {
		const byResource = Object.fromEntries(
			properties('triggerOn')
				.filter((p) => p.displayOptions?.show?.resource)
				.map((p) => [(p.displayOptions?.show?.resource as string[])[0], optionValues(p)]),
		);
		expect(byResource).toEqual({
			contact: ['fieldValue', 'recordAdded', 'recordAddedOrUpdated', 'recordUpdated'],
			invoice: ['fieldValue', 'recordAdded', 'recordAddedOrUpdated', 'recordUpdated'],
			product: ['fieldValue', 'recordAdded', 'recordAddedOrUpdated', 'recordUpdated', 'lowStock'],
			employee: ['fieldValue', 'recordAdded'],
		});
		for (const p of properties('triggerOn')) {
			const names = (p.options as INodePropertyOptions[]).map((o) => o.name);
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		}
	});

	it('version 1.1: every watch is its own entry in the node panel (the first Trigger On), named by resource and watch', () => {
		expect(description.version).toEqual([1, 1.1]);
		const [first] = description.properties.filter((p) => p.displayName === 'Trigger On');
		expect(first.displayOptions?.show?.['@version']).toEqual([{ _cnd: { gte: 1.1 } }]);
		const entries = (first.options as INodePropertyOptions[]).map((o) => `${o.action} = ${String(o.value)}`);
		expect(entries.sort()).toEqual(
			[
				'On new contact = contact:recordAdded',
				'On contact updated = contact:recordUpdated',
				'On contact added or updated = contact:recordAddedOrUpdated',
				'On contact field becomes a value = contact:fieldValue',
				'On new employee = employee:recordAdded',
				'On employee field becomes a value = employee:fieldValue',
				'On new invoice = invoice:recordAdded',
				'On invoice updated = invoice:recordUpdated',
				'On invoice added or updated = invoice:recordAddedOrUpdated',
				'On invoice field becomes a value = invoice:fieldValue',
				'On new product = product:recordAdded',
				'On product updated = product:recordUpdated',
				'On product added or updated = product:recordAddedOrUpdated',
				'On product field becomes a value = product:fieldValue',
				'On product stock below threshold = product:lowStock',
			].sort(),
		);
		// Resource belongs to version 1 only.
		expect(properties('resource')[0].displayOptions?.show?.['@version']).toEqual([1]);
	});

	it("offers the sandbox's invoice states as presets and says how to type any other value", () => {
		const [invoiceValue] = properties('value').filter((p) => p.type === 'options');
		expect(optionValues(invoiceValue)).toEqual(['draft', 'overdue', 'paid', 'sent']);
		expect(invoiceValue.description).toMatch(/switch to Expression and type it/);
	});

	it('says what Stock Below Threshold costs in requests: one list scan, else at most K products a poll, each every ceil(n/K) polls', () => {
		const notice = description.properties.find((p) => p.name === 'stockCostNotice');
		expect(notice?.displayName).toMatch(/one scan of the product list a poll/);
		expect(notice?.displayName).toMatch(/at most K products' stock per poll.*each product is checked at least every ceil\(products ÷ K\) polls/);
		const all = (properties('products')[0].options as Array<{ value: string; description?: string }>).find((o) => o.value === 'all');
		expect(all?.description).toMatch(/at most Stock Reads per Poll products.*at least every ceil\(products ÷ 500\) polls/);
	});

	it('describes its booleans the n8n way', () => {
		const options = properties('options')[0].options as INodeProperties[];
		for (const option of options.filter((o) => o.type === 'boolean')) expect(option.description).toMatch(/^Whether /);
	});
});
