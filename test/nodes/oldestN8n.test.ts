import type { INodeParameters, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers as Current } from 'n8n-workflow';
import { NodeHelpers as Oldest } from 'n8n-workflow-oldest';

import { Erp } from '../../nodes/Erp/Erp.node';
import { ErpPollingTrigger } from '../../nodes/ErpPollingTrigger/ErpPollingTrigger.node';
import { ErpTrigger } from '../../nodes/ErpTrigger/ErpTrigger.node';

// The package claims n8n 1.85 and later; n8n 1.85.4 ships n8n-workflow 1.83.0 (devDependency n8n-workflow-oldest),
// whose display conditions know '@version' (and its `_cnd` forms) but not '@tool'. What the editor shows of a node is
// what n8n-workflow's displayParameter lets through, for the node's parameters (with their defaults filled in, as the
// editor holds them) and for the options of its collections. Every parameter n8n 2.41 shows must show on 1.85 too.

type Display = (values: INodeParameters, property: INodeProperties, path: string, typeVersion: number, description: INodeTypeDescription) => boolean;

interface Workflow {
	name: string;
	/** The node's parameter values as the editor holds them: the saved ones, and the defaults of what is shown. */
	fill(properties: INodeProperties[], values: INodeParameters, typeVersion: number, description: INodeTypeDescription): INodeParameters;
	display: Display;
}

const current: Workflow = {
	name: 'n8n-workflow 2.41',
	fill: (properties, values, typeVersion, description) => Current.getNodeParameters(properties, values, true, false, { typeVersion }, description) ?? {},
	display: (values, property, path, typeVersion, description) => Current.displayParameterPath({ parameters: values }, property, path, { typeVersion }, description),
};

// The two packages declare the same shapes apart: 1.83's functions take this package's values as they are.
type OldestProperties = Parameters<typeof Oldest.getNodeParameters>[0];
type OldestProperty = Parameters<typeof Oldest.displayParameterPath>[1];
type OldestValues = Parameters<typeof Oldest.displayParameterPath>[0];

const oldest: Workflow = {
	name: 'n8n-workflow 1.83',
	fill: (properties, values, typeVersion) =>
		(Oldest.getNodeParameters(properties as unknown as OldestProperties, values as unknown as OldestValues, true, false, { typeVersion }) ?? {}) as INodeParameters,
	display: (values, property, path, typeVersion) =>
		Oldest.displayParameterPath({ parameters: values } as unknown as OldestValues, property as unknown as OldestProperty, path, { typeVersion }),
};

/** What one n8n-workflow shows: each top-level parameter by its place in the list, and each collection option it offers. */
function shown(workflow: Workflow, nodeType: INodeType, values: INodeParameters, typeVersion: number): string[] {
	const { description } = nodeType;
	const filled = workflow.fill(description.properties, values, typeVersion, description);
	const seen: string[] = [];
	description.properties.forEach((property, index) => {
		if (!workflow.display(filled, property, 'parameters', typeVersion, description)) return;
		seen.push(`${index}:${property.name}`);
		if (property.type !== 'collection') return;
		for (const option of (property.options ?? []) as INodeProperties[]) {
			if (workflow.display(filled, option, `parameters.${property.name}`, typeVersion, description)) seen.push(`${index}:${property.name}.${option.name}`);
		}
	});
	return seen;
}

/**
 * Every state of the choices that decide what else shows (options and booleans at the top, and a field mapper's
 * mode), as n8n 2.41 shows them, one choice after the other.
 */
function states(nodeType: INodeType, typeVersion: number, values: INodeParameters = {}): INodeParameters[] {
	const { description } = nodeType;
	const filled = current.fill(description.properties, values, typeVersion, description);
	const next = description.properties.find(
		(property) =>
			!(property.name in values) &&
			['options', 'boolean', 'resourceMapper'].includes(property.type) &&
			current.display(filled, property, 'parameters', typeVersion, description),
	);
	if (!next) return [values];
	const choices: unknown[] =
		next.type === 'boolean'
			? [false, true]
			: next.type === 'resourceMapper'
				? ['defineBelow', 'autoMapInputData'].map((mappingMode) => ({ mappingMode, value: null }))
				: (next.options ?? []).map((option) => (option as { value: unknown }).value);
	return choices.flatMap((choice) => states(nodeType, typeVersion, { ...values, [next.name]: choice as INodeParameters[string] }));
}

const nodes: Array<[string, INodeType]> = [
	['ERP', new Erp()],
	['ERP Trigger', new ErpTrigger()],
	['ERP Polling Trigger', new ErpPollingTrigger()],
];

const versionsOf = (nodeType: INodeType) => [nodeType.description.version].flat();

describe.each(nodes)('%s as n8n 1.85 (n8n-workflow 1.83) shows it', (_name, nodeType) => {
	it.each(versionsOf(nodeType))('version %s: every parameter and option n8n 2.41 shows, in every state of its choices', (typeVersion) => {
		const all = states(nodeType, typeVersion);
		expect(all.length).toBeGreaterThan(1);
		for (const values of all) {
			const inCurrent = shown(current, nodeType, values, typeVersion);
			const missing = inCurrent.filter((parameter) => !shown(oldest, nodeType, values, typeVersion).includes(parameter));
			expect({ values, missing }).toEqual({ values, missing: [] });
		}
	});
});

describe('the ERP node\'s version conditions under n8n-workflow 1.83', () => {
	const erp = new Erp();
	const simplifyShown = (workflow: Workflow, typeVersion: number, operation: string) =>
		shown(workflow, erp, { resource: 'contact', operation }, typeVersion).some((parameter) => parameter.endsWith(':simplify'));

	it.each([current, oldest])('$name: Simplify (from 1.1 on, a `_cnd` condition) shows at 1.1 and not at 1', (workflow) => {
		for (const operation of ['get', 'getAll']) {
			expect({ operation, at1: simplifyShown(workflow, 1, operation), at1_1: simplifyShown(workflow, 1.1, operation) }).toEqual({ operation, at1: false, at1_1: true });
		}
	});

	// So the comparison above also holds Return All, Limit and Simplify, which a show condition on '@tool' would hide under 1.83.
	it.each([1, 1.1])('version %s: the states compared above hold every resource and operation (23)', (typeVersion) => {
		expect(new Set(states(erp, typeVersion).map(({ resource, operation }) => `${String(resource)} › ${String(operation)}`)).size).toBe(23);
	});
});
