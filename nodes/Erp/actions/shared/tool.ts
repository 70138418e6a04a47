import type { INode, INodeProperties, NodeOperationError } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/**
 * n8n builds an "ERP Tool" variant of the node (its type name ends in "Tool") for AI agents and the MCP Server
 * Trigger; the display condition '@tool' tells the two apart (NodeHelpers.getPropertyValues). An n8n-workflow that
 * does not know '@tool' (1.83, in n8n 1.85) meets neither condition: what the node shows only outside a tool is
 * therefore hidden in a tool (`hide: IN_TOOL`) rather than shown outside one, so that such an n8n shows it.
 */
export const IN_TOOL = { '@tool': [true] };

export const isToolNode = (node: INode) => node.type.endsWith('Tool');

/** A tool's list holds a few records by default: a model reads every one of them. */
export const TOOL_LIMIT = 10;

/**
 * What the model is told the tool does, one per operation: what holds for every ERP that follows the API document,
 * in a few sentences; each argument is described by its own $fromAI() description. Declaring `toolDescription` keeps
 * n8n from adding its own "Set Automatically" description, which would only say "<action> in ERP"; the user can
 * still edit this one.
 */
export function toolDescription(text: string): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 5 },
		default: text,
		description: 'Explain to the LLM what this tool does, a good, specific description would allow LLMs to produce expected results much more often',
		displayOptions: { show: IN_TOOL },
	};
}

const FROM_AI_KEY = /\$fromAI\(\s*(['"`])([A-Za-z0-9_-]+)\1/;

/** The key of the $fromAI() argument a parameter (a path such as "contactId" or "columns.value.email") is filled by. */
export function fromAiKey(node: INode, path: string): string | undefined {
	let value: unknown = node.parameters;
	for (const part of path.split('.')) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
	if (typeof value === 'object' && value !== null && '__rl' in value) value = (value as { value?: unknown }).value;
	return typeof value === 'string' ? FROM_AI_KEY.exec(value)?.[2] : undefined;
}

/** A parameter's label in an error, with the model's argument name when $fromAI() fills it: `Contact ID (argument "contact_id")`. */
export function argumentLabel(node: INode, path: string, label: string): string {
	const key = fromAiKey(node, path);
	return key ? `${label} (argument "${key}")` : label;
}

const RECORD_ID_PARAMETERS = ['contactId', 'invoiceId', 'productId', 'employeeId'];

/** A tool's "not found" also names the argument that held the ID, so the model knows which one to correct. */
export function namingIdArgument<E extends NodeApiError | NodeOperationError>(node: INode, error: E): E {
	if (!isToolNode(node) || !(error instanceof NodeApiError) || error.httpCode !== '404') return error;
	const key = RECORD_ID_PARAMETERS.map((name) => fromAiKey(node, name)).find((found) => found !== undefined);
	if (key) error.description = `${error.description ?? ''} The ID was the "${key}" argument.`.trim();
	return error;
}
