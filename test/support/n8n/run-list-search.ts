import { ensureExpressionEngine } from './environment';

import { LoadOptionsContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	INodeListSearchResult,
	INodeParameters,
	INodeProperties,
	INodeType,
} from 'n8n-workflow';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';

import { createAdditionalData } from './additional-data';
import { defaultTypeVersion } from './node-types';
import { buildWorkflow } from './workflow';

export interface RunListSearchOptions {
	/** An instance of the node, e.g. `new Erp()`. */
	nodeType: INodeType;
	/** The name of the method in `methods.listSearch`. */
	method: string;
	credentialType?: ICredentialType;
	credentials?: ICredentialDataDecryptedObject;
	/** What the user typed into the list's search box. */
	filter?: string;
	/** The token the previous page returned. */
	paginationToken?: string;
	/** The node's current parameters, as the editor sends them (e.g. the selected resource); default none. */
	parameters?: INodeParameters;
	typeVersion?: number;
}

/** The path of the resource-locator parameter that uses `method`, as the editor sends it (`parameters.<name>`). */
function locatorPath(properties: INodeProperties[], method: string): string {
	const property = properties.find((candidate) =>
		candidate.modes?.some((mode) => mode.typeOptions?.searchListMethod === method),
	);
	return property ? `parameters.${property.name}` : 'parameters';
}

/**
 * Calls `methods.listSearch[method]` the way n8n's DynamicNodeParametersService does when the editor opens a
 * resource locator's list: on a LoadOptionsContext of the node with its current parameters and credential,
 * inside an expression isolate. Errors the method throws reach the caller as they would reach the editor.
 */
export async function runListSearch(options: RunListSearchOptions): Promise<INodeListSearchResult> {
	await ensureExpressionEngine();
	const { nodeType, method: methodName } = options;
	const typeVersion = options.typeVersion ?? defaultTypeVersion(nodeType);
	const { description, methods } = NodeHelpers.getVersionedNodeType(nodeType, typeVersion);
	const method = methods?.listSearch?.[methodName];
	if (method === undefined) {
		throw new UnexpectedError(`Node "${description.name}" has no listSearch method "${methodName}"`);
	}

	const { workflow, node, credentialsHelper } = buildWorkflow({ ...options, parameters: options.parameters ?? {} });
	const additionalData = createAdditionalData({ credentialsHelper });
	additionalData.currentNodeParameters = node.parameters;
	const path = locatorPath(description.properties, methodName);
	const context = new LoadOptionsContext(workflow, node, additionalData, path);

	return await workflow.expression.withIsolate(async () => {
		const result = await method.call(context, options.filter, options.paginationToken);
		const token: unknown = result?.paginationToken;
		return typeof token === 'number' ? { ...result, paginationToken: String(token) } : result;
	});
}
