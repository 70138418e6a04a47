import type { INode, INodeParameters, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Erp } from '../../../nodes/Erp/Erp.node';

/**
 * The ERP node as n8n 2.41 turns it into "ERP Tool" (packages/cli, tool-generation/ai-tools.ts convertNodeToAiTool):
 * the type name gains "Tool", which is what the '@tool' display condition and the node's own isToolNode read. n8n
 * adds its own Tool Description parameters only when the node has none, and this node has one per operation.
 * Inputs and outputs stay main here, so that the harness's Start node can feed it the arguments a model gives.
 */
export function erpTool(): INodeType {
	const erp = new Erp();
	const description: INodeTypeDescription = { ...erp.description, name: `${erp.description.name}Tool`, displayName: 'ERP Tool' };
	delete description.usableAsTool;
	return Object.assign(Object.create(Object.getPrototypeOf(erp) as object) as INodeType, erp, { description });
}

/** A node of the given type with the parameters n8n fills in from the saved ones (defaults, shown ones only). */
export function withDefaults(nodeType: INodeType, parameters: INodeParameters, name = 'ERP'): INode {
	const node: INode = { id: 'n', name, type: `n8n-nodes-erp.${nodeType.description.name}`, typeVersion: 1, position: [0, 0], parameters };
	node.parameters = NodeHelpers.getNodeParameters(nodeType.description.properties, parameters, true, false, node, nodeType.description) ?? {};
	return node;
}
