import { ensureExpressionEngine } from './environment';

import { LoadOptionsContext } from 'n8n-core';
import type { ICredentialDataDecryptedObject, ICredentialType, INodeParameters, INodeType, ResourceMapperFields } from 'n8n-workflow';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';

import { createAdditionalData } from './additional-data';
import { defaultTypeVersion } from './node-types';
import { buildWorkflow } from './workflow';

export interface RunResourceMappingOptions {
	/** An instance of the node, e.g. `new Erp()`. */
	nodeType: INodeType;
	/** The resourceMapper parameter's name, e.g. `columns`; its `resourceMapperMethod` is the one called. */
	parameterName: string;
	/** The node's parameters, as the editor sends them (they decide which parameter of that name is shown). */
	parameters: INodeParameters;
	credentialType?: ICredentialType;
	credentials?: ICredentialDataDecryptedObject;
	typeVersion?: number;
}

/**
 * Calls the `resourceMapperMethod` of the shown resourceMapper parameter the way n8n's DynamicNodeParametersService
 * does when the editor opens (or refreshes) a field mapper: on a LoadOptionsContext of the node with its parameters
 * and credential, inside an expression isolate. Returns the field list the editor receives.
 */
export async function runResourceMapping(options: RunResourceMappingOptions): Promise<ResourceMapperFields> {
	await ensureExpressionEngine();
	const { nodeType, parameterName } = options;
	const typeVersion = options.typeVersion ?? defaultTypeVersion(nodeType);
	const { description, methods } = NodeHelpers.getVersionedNodeType(nodeType, typeVersion);

	const { workflow, node, credentialsHelper } = buildWorkflow({ ...options, typeVersion });
	const parameter = description.properties.find(
		(property) =>
			property.name === parameterName &&
			property.type === 'resourceMapper' &&
			NodeHelpers.displayParameter(node.parameters, property, node, description),
	);
	const methodName = parameter?.typeOptions?.resourceMapper?.resourceMapperMethod;
	const method = methodName === undefined ? undefined : methods?.resourceMapping?.[methodName];
	if (method === undefined) {
		throw new UnexpectedError(`Node "${description.name}" shows no resourceMapper "${parameterName}" with a resourceMapping method for these parameters`);
	}

	const additionalData = createAdditionalData({ credentialsHelper });
	additionalData.currentNodeParameters = node.parameters;
	const context = new LoadOptionsContext(workflow, node, additionalData, `parameters.${parameterName}`);
	return await workflow.expression.withIsolate(async () => await method.call(context));
}
