import type { ICredentialDataDecryptedObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ErpWebhookApi } from '../../../credentials/ErpWebhookApi.credentials';
import { erpWebhookApiTest } from '../../../nodes/ErpTrigger/credentialTest';
import { ALL_EVENTS, ERP_EVENTS } from '../../../nodes/ErpTrigger/events';
import { ErpTrigger } from '../../../nodes/ErpTrigger/ErpTrigger.node';
import codex from '../../../nodes/ErpTrigger/ErpTrigger.node.json';

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

	it('tells the user where the production URL goes', () => {
		expect(description.properties[0]).toMatchObject({ type: 'notice', name: 'notice' });
		expect(description.properties[0].displayName).toMatch(/Production URL.*ERP's webhook settings/);
	});

	it('offers the six events of the API document and All Events, in name order', () => {
		const options = property('events').options as INodePropertyOptions[];

		expect(options.map((o) => o.value).sort()).toEqual([ALL_EVENTS, ...ERP_EVENTS].sort());
		expect(options.map((o) => o.name)).toEqual([...options.map((o) => o.name)].sort((a, b) => a.localeCompare(b)));
		expect(property('events')).toMatchObject({ type: 'multiOptions', required: true, default: [] });
	});

	it('keeps verification off by default and requires the credential only when it is on', () => {
		expect(property('verification').default).toBe('none');
		expect(description.credentials).toEqual([
			{
				name: 'erpWebhookApi',
				required: true,
				testedBy: 'erpWebhookApiTest',
				displayOptions: { show: { verification: ['sharedSecret', 'hmacSha256'] } },
			},
		]);
		expect(new ErpTrigger().methods.credentialTest.erpWebhookApiTest).toBe(erpWebhookApiTest);
	});

	it('keeps the secret out of node parameters', () => {
		const names = JSON.stringify(description.properties);
		expect(names).not.toMatch(/"name":"secret"/);
		expect(new ErpWebhookApi().properties).toEqual([
			expect.objectContaining({ name: 'secret', typeOptions: { password: true }, required: true }),
		]);
	});

	it('describes the boolean option the n8n way', () => {
		const [topLevel] = property('options').options as INodeProperties[];
		expect(topLevel).toMatchObject({ name: 'dataAtTopLevel', type: 'boolean', default: false });
		expect(topLevel.description).toMatch(/^Whether /);
	});

	it('has a codex pointing at the README’s trigger section', () => {
		expect(codex.node).toBe('n8n-nodes-erp.erpTrigger');
		expect(codex.categories).toEqual(expect.arrayContaining(['Finance & Accounting', 'Sales']));
		expect(codex.resources.primaryDocumentation).toEqual([
			{ url: 'https://github.com/n8n-nodes-erp/n8n-nodes-erp#erp-trigger' },
		]);
	});
});

describe('ERP Webhook API credential test', () => {
	const test = (data: ICredentialDataDecryptedObject) =>
		erpWebhookApiTest.call({} as never, { id: '1', name: 'ERP Webhook', type: 'erpWebhookApi', data });

	it('passes a secret, and says it cannot be confirmed with the ERP', async () => {
		await expect(test({ secret: 'whsec_1' })).resolves.toEqual({
			status: 'OK',
			message: expect.stringContaining('The ERP cannot confirm it'),
		});
	});

	it('fails an empty secret and one with spaces around it', async () => {
		await expect(test({ secret: '' })).resolves.toMatchObject({ status: 'Error' });
		await expect(test({})).resolves.toMatchObject({ status: 'Error' });
		await expect(test({ secret: ' whsec_1\n' })).resolves.toMatchObject({
			status: 'Error',
			message: 'The secret starts or ends with a space: copy it again without it',
		});
	});
});
