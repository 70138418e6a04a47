import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ErpPollingTrigger } from '../../../nodes/ErpPollingTrigger/ErpPollingTrigger.node';
import { ErpTrigger } from '../../../nodes/ErpTrigger/ErpTrigger.node';
import { ensureExpressionEngine } from '../../../tooling/harness/environment';
import { buildWorkflow } from '../../../tooling/harness/workflow';

const { description } = new ErpPollingTrigger();
const properties = (name: string) => description.properties.filter((p) => p.name === name);
const optionValues = (property: INodeProperties) => (property.options as INodePropertyOptions[]).map((o) => o.value);

describe('ERP Polling Trigger description', () => {
	// In the package's node list, with its codex: test/repo/package/package.test.ts.
	it('is a polling trigger (n8n adds Poll Times) with the ERP API credential', () => {
		expect(description).toMatchObject({ name: 'erpPollingTrigger', displayName: 'ERP Polling Trigger', group: ['trigger'], polling: true, inputs: [] });
		expect(description.credentials).toEqual([{ name: 'erpApi', required: true }]);
	});

	it('says when to pick it and when the webhook trigger, in both nodes', () => {
		expect(description.description).toMatch(/without a public URL.*catches up after downtime/);
		expect(description.properties[0]).toMatchObject({ type: 'notice' });
		expect(description.properties[0].displayName).toMatch(/no public URL needed.*For instant events.*use the ERP Trigger/);
		expect(new ErpTrigger().description.description).toMatch(/the ERP must reach this n8n; otherwise use ERP Polling/);
	});

	it('is one version, its first release', () => {
		expect(description.version).toBe(1);
		expect(description).not.toHaveProperty('defaultVersion');
		expect(properties('resource')).toEqual([]);
		expect(JSON.stringify(description.properties)).not.toContain('@version');
	});

	it('offers per resource only what it can watch in one Trigger On: stock for products, updates not for employees, any list as contacts', () => {
		const [triggerOn, ...others] = properties('triggerOn');
		expect(others).toEqual([]);
		const byResource: Record<string, string[]> = {};
		for (const value of optionValues(triggerOn)) {
			const [resource, watch] = String(value).split(':');
			(byResource[resource] ??= []).push(watch);
		}
		for (const watches of Object.values(byResource)) watches.sort();
		expect(byResource).toEqual({
			contact: ['fieldValue', 'recordAdded', 'recordAddedOrUpdated', 'recordUpdated'],
			invoice: ['fieldValue', 'recordAdded', 'recordAddedOrUpdated', 'recordUpdated'],
			product: ['fieldValue', 'lowStock', 'recordAdded', 'recordAddedOrUpdated', 'recordUpdated'],
			employee: ['fieldValue', 'recordAdded'],
			list: ['fieldValue', 'recordAdded', 'recordAddedOrUpdated', 'recordUpdated'],
		});
		const names = (triggerOn.options as INodePropertyOptions[]).map((o) => o.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});

	it("names each watch in its resource's words and lists it as its own node panel entry: 'On contact added' for Contact Added", () => {
		const WATCH: Record<string, string> = { recordAdded: 'Added', recordUpdated: 'Updated', recordAddedOrUpdated: 'Added or Updated', fieldValue: 'Field Becomes a Value', lowStock: 'Stock Below Threshold' };
		for (const option of properties('triggerOn')[0].options as INodePropertyOptions[]) {
			const [resource, watch] = String(option.value).split(':');
			const name = resource === 'list' ? `Record ${WATCH[watch]} ${watch === 'recordAdded' ? 'to' : 'in'} Any List` : `${resource[0].toUpperCase()}${resource.slice(1)} ${WATCH[watch]}`;
			expect([option.name, option.action]).toEqual([name, `On ${name.toLowerCase()}`]);
		}
	});

	it("describes each watch in its resource's words: an invoice example only for invoices", () => {
		for (const { value, description: text } of properties('triggerOn')[0].options as INodePropertyOptions[]) {
			const [resource] = String(value).split(':');
			expect(text).toMatch(new RegExp(`\\b${resource === 'list' ? 'record' : resource}\\b`, 'i'));
			expect(text).not.toMatch(/\ba [aeiou]|\ban [^aeiou]/i);
			expect({ value, example: text?.includes('e.g.'), listPath: text?.endsWith(', in the list at List Path') }).toEqual({ value, example: value === 'invoice:fieldValue', listPath: resource === 'list' });
		}
	});

	it('asks List Path and ID Field (default id) for any list only; Field and Value as for contacts', () => {
		const shownFor = (name: string) => properties(name).flatMap((p) => (p.displayOptions?.show?.triggerOn ?? []) as string[]);
		const anyList = ['list:fieldValue', 'list:recordAdded', 'list:recordAddedOrUpdated', 'list:recordUpdated'];
		expect(shownFor('listPath').sort()).toEqual(anyList);
		expect(shownFor('idField').sort()).toEqual(anyList);
		expect(properties('idField')[0]).toMatchObject({ type: 'string', default: 'id', required: true });
		expect(properties('listPath')[0]).toMatchObject({ type: 'string', default: '', required: true, placeholder: 'e.g. /orders' });
		const [, anyField] = properties('field');
		expect(anyField.displayOptions?.show?.triggerOn).toEqual(expect.arrayContaining(['contact:fieldValue', 'list:fieldValue']));
		expect(shownFor('fieldsToWatch')).toEqual(expect.arrayContaining(['list:recordUpdated', 'list:recordAddedOrUpdated']));
	});

	it("offers the sandbox's invoice states as presets and says how to type any other value", () => {
		const [invoiceValue] = properties('value').filter((p) => p.type === 'options');
		expect(optionValues(invoiceValue)).toEqual(['draft', 'overdue', 'paid', 'sent']);
		expect(invoiceValue.description).toMatch(/switch to Expression and type it/);
	});

	it('says in two sentences what Stock Below Threshold reads, and links the page on what that costs', () => {
		const notice = description.properties.find((p) => p.name === 'stockCostNotice');
		expect(notice?.displayName).toMatch(/^Each poll reads the products \(one request per 100, or one per chosen product\)/);
		expect(notice?.displayName).toMatch(/the stock of up to Stock Reads per Poll products/);
		expect(notice?.displayName).toMatch(/<a href="https:\/\/github\.com\/n8n-nodes-erp\/n8n-nodes-erp\/blob\/main\/docs\/triggers\.md#cost-per-poll" target="_blank">Cost per poll<\/a>\.$/);
		const all = (properties('products')[0].options as Array<{ value: string; description?: string }>).find((o) => o.value === 'all');
		expect(all?.description).toMatch(/with each product's total stock when the list carries it; otherwise also the stock of up to Stock Reads per Poll products/);
	});
});

describe('ERP Polling Trigger subtitle, as the editor evaluates it', () => {
	beforeAll(async () => {
		await ensureExpressionEngine();
	});

	it("is the Trigger On choice's name, for every choice", () => {
		const choices = properties('triggerOn')[0].options as INodePropertyOptions[];
		const shown = choices.map(({ value }) => {
			const { workflow, node } = buildWorkflow({ nodeType: new ErpPollingTrigger(), parameters: { triggerOn: value } });
			return workflow.expression.getSimpleParameterValue(node, description.subtitle, 'internal', {});
		});
		expect(shown).toEqual(choices.map((c) => c.name));
	});
});
