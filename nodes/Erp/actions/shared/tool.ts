import type { INode, NodeOperationError } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** The "ERP Tool" variant n8n builds of the node for AI agents and the MCP Server Trigger: its type name ends in "Tool". */
export const isToolNode = (node: INode) => node.type.endsWith('Tool');

/** A tool's list holds a few records by default: a model reads every one of them. */
export const TOOL_LIMIT = 10;

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
