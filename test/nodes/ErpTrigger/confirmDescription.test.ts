import type { INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ErpTrigger } from '../../../nodes/ErpTrigger/ErpTrigger.node';
import { ensureExpressionEngine } from '../../../tooling/harness/environment';
import { buildWorkflow } from '../../../tooling/harness/workflow';

// Version 2's Confirm With the ERP as n8n-workflow reads the description: the outputs (an expression), the
// credential and the parameters each version shows.

const nodeType = new ErpTrigger();
const { description } = nodeType;

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

beforeAll(async () => {
	await ensureExpressionEngine();
});

describe('ERP Trigger versions', () => {
	it('has versions 1 and 2; a new node gets 2', () => {
		expect(description.version).toEqual([1, 2]);
		expect(description.defaultVersion).toBe(2);
	});

	it('version 2 with Confirm With the ERP on (its default) has two outputs, Confirmed and Not Confirmed', () => {
		expect(outputs(2)).toEqual([
			{ type: 'main', displayName: 'Confirmed' },
			{ type: 'main', displayName: 'Not Confirmed' },
		]);
	});

	it('version 1, and version 2 with Confirm With the ERP off, have one output as before', () => {
		expect(outputs(1)).toEqual(['main']);
		expect(outputs(2, { confirm: false })).toEqual(['main']);
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
		expect(credentialShown(1)).toBe(false);
		expect(credentialShown(1, { verification: 'hmacSha256' })).toBe(true);
		expect(credentialShown(1, { verification: 'sharedSecret' })).toBe(true);
		for (const confirm of [true, false]) {
			for (const verification of ['off', 'hmacSha256', 'sharedSecret']) {
				expect({ confirm, verification, shown: credentialShown(2, { confirm, verification }) }).toEqual({ confirm, verification, shown: true });
			}
		}
	});

	it('describes Confirm With the ERP and its options the n8n way', () => {
		const confirm = description.properties.find((p) => p.name === 'confirm') as INodeProperties;
		expect(confirm).toMatchObject({ displayName: 'Confirm With the ERP', type: 'boolean', default: true });
		expect(confirm.description).toMatch(/^Whether to read each delivery's record back from the ERP before the workflow acts on it/);
		const options = (description.properties.find((p) => p.name === 'options') as INodeProperties).options as INodeProperties[];
		expect(options.map((o) => o.displayName)).toEqual([...options.map((o) => o.displayName)].sort((a, b) => a.localeCompare(b)));
		expect(options.find((o) => o.name === 'confirmationWait')).toMatchObject({ type: 'number', default: 3 });
	});
});
