import { ensureExpressionEngine } from './environment';

import { LoadOptionsContext } from 'n8n-core';
import type { ILoadOptionsFunctions, INodeListSearchResult, INodeProperties, ResourceMapperFields } from 'n8n-workflow';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';

import { additionalData, buildWorkflow, type HarnessWorkflow, type NodeUnderTest } from './workflow';

export interface RunListSearchOptions extends NodeUnderTest {
	/** The name of the method in `methods.listSearch`. */
	method: string;
	/** What the user typed into the list's search box. */
	filter?: string;
	/** The token the previous page returned. */
	paginationToken?: string;
}

export interface RunResourceMappingOptions extends NodeUnderTest {
	/** The resourceMapper parameter's name, e.g. `columns`; its `resourceMapperMethod` is the one called. */
	parameterName: string;
}

/** Calls a method as the editor's DynamicNodeParametersService does: on the node's LoadOptionsContext for the parameter at `path`, in an expression isolate. */
async function callForEditor<T, A extends unknown[]>(
	harness: HarnessWorkflow,
	path: string,
	method: (this: ILoadOptionsFunctions, ...args: A) => Promise<T>,
	...args: A
): Promise<T> {
	await ensureExpressionEngine();
	const { workflow, node } = harness;
	const data = { ...additionalData(harness), currentNodeParameters: node.parameters };
	const context = new LoadOptionsContext(workflow, node, data, path);
	return await workflow.expression.withIsolate(async () => await method.call(context, ...args));
}

/** `methods.listSearch[method]`, as when the editor opens a resource locator's list (or its next page). */
export async function runListSearch(options: RunListSearchOptions): Promise<INodeListSearchResult> {
	const { nodeType, method: name, filter, paginationToken } = options;
	const method = nodeType.methods?.listSearch?.[name];
	if (method === undefined) throw new UnexpectedError(`Node "${nodeType.description.name}" has no listSearch method "${name}"`);
	const locator = nodeType.description.properties.find((property) => property.modes?.some((mode) => mode.typeOptions?.searchListMethod === name));
	const harness = buildWorkflow(options);
	return await callForEditor(harness, locator ? `parameters.${locator.name}` : 'parameters', method, filter, paginationToken);
}

/** The `resourceMapperMethod` of the shown resourceMapper `parameterName`: the fields the editor's mapper shows. */
export async function runResourceMapping(options: RunResourceMappingOptions): Promise<ResourceMapperFields> {
	const { nodeType, parameterName } = options;
	const { description, methods } = nodeType;
	const harness = buildWorkflow(options);
	const shown = (property: INodeProperties) => NodeHelpers.displayParameter(harness.node.parameters, property, harness.node, description);
	const parameter = description.properties.find((property) => property.name === parameterName && property.type === 'resourceMapper' && shown(property));
	const methodName = parameter?.typeOptions?.resourceMapper?.resourceMapperMethod;
	const method = methodName === undefined ? undefined : methods?.resourceMapping?.[methodName];
	const problem = `shows no resourceMapper "${parameterName}" with a resourceMapping method for these parameters`;
	if (method === undefined) throw new UnexpectedError(`Node "${description.name}" ${problem}`);
	return await callForEditor(harness, `parameters.${parameterName}`, method);
}
