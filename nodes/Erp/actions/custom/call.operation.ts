import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import type { HttpMethod, Query } from '../../../shared/transport/types';
import { forOperation, queryParametersOption, returnAllAndLimit } from '../common.descriptions';
import { parseJsonObject } from '../shared/fields';
import { argumentLabel } from '../shared/tool';
import { answerItems, fullResponse, wantsFullResponse } from './answer';
import { keyedPatch, keyedPost, readKeyField } from './keyField';
import { readPath } from './readPath';
import { readAnswer } from './read';

const TOOL_TEXT =
	'Make a custom API call in the ERP: reaches any endpoint of its API, also one no other ERP tool covers, by its ' +
	'path below the API address (such as /orders or /orders/42). Returns the records of a list, the record the ERP ' +
	'answers with, or {success: true} when it answers nothing.';

const METHODS: HttpMethod[] = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'];
const WITH_BODY: HttpMethod[] = ['PATCH', 'POST', 'PUT'];
const BODY_EXAMPLE = '{"reference": "SO-1001", "customer": "Acme"}';

export const description = forOperation(
	'customApiCall',
	'call',
	[
		{
			displayName: 'Method',
			name: 'method',
			type: 'options',
			options: METHODS.map((method) => ({ name: method, value: method })),
			default: 'GET',
			description: 'The HTTP method to send',
		},
		{
			displayName: 'Path',
			name: 'path',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. /orders/42',
			description:
				'Where to send the request, below the Base URL of the ERP API credential: with https://erp.example.com/api/v1, /orders reaches https://erp.example.com/api/v1/orders',
		},
		{
			...queryParametersOption,
			description: 'Sent as they are, e.g. status = open. Naming page or per_page reads that one page instead of the pages Return All or Limit need.',
		},
		{
			displayName: 'Body',
			name: 'body',
			type: 'json',
			default: '{}',
			description: `The JSON object to send, e.g. ${BODY_EXAMPLE}`,
			displayOptions: { show: { method: WITH_BODY } },
		},
		{
			displayName: 'Key Field',
			name: 'keyField',
			type: 'string',
			default: '',
			placeholder: 'e.g. reference',
			description:
				'A field of the Body that settles a lost answer: a POST\'s new record keeps it and the list at Path can be filtered by it; a PATCH changes it in the record at Path. Left empty, such a request is never sent again.',
			displayOptions: { show: { method: ['POST', 'PATCH'] } },
		},
		...updateDisplayOptions({ show: { method: ['GET'] } }, returnAllAndLimit),
	] satisfies INodeProperties[],
	TOOL_TEXT,
);

function readMethod(this: IExecuteFunctions, itemIndex: number): HttpMethod {
	const method = this.getNodeParameter('method', itemIndex) as HttpMethod;
	if (METHODS.includes(method)) return method;
	throw new NodeOperationError(this.getNode(), `Method must be one of ${METHODS.join(', ')}, not ${JSON.stringify(method)}`, { itemIndex });
}

function readQuery(this: IExecuteFunctions, itemIndex: number): Query {
	const entries = this.getNodeParameter('queryParameters.parameter', itemIndex, []) as Array<{ name?: unknown; value?: unknown }>;
	const query: Query = {};
	for (const { name, value } of entries) {
		const key = String(name ?? '').trim();
		if (key === '') continue;
		if (key in query) throw new NodeOperationError(this.getNode(), `Query Parameters has "${key}" twice: keep one of them`, { itemIndex });
		query[key] = typeof value === 'number' || typeof value === 'boolean' ? value : String(value ?? '');
	}
	return query;
}

const NOT_RESENT = (method: HttpMethod) =>
	`The node does not send a ${method} again after such a failure, so nothing is written twice: check in the ERP before running this item again` +
	(method === 'POST' || method === 'PATCH' ? ', or set Key Field so that the node can look the record up and settle it.' : '.');

/** A 404 at a path the user wrote points at the path first. */
function naming404(error: unknown): unknown {
	if (error instanceof NodeApiError && error.httpCode === '404') {
		error.description = `Check the Path: the ERP has nothing there, or not the record it names. ${error.description ?? ''}`.trim();
	}
	return error;
}

/**
 * <Method> <Path> below the Base URL, with Query Parameters and (POST, PUT, PATCH) the Body: any endpoint of the ERP,
 * through the node's transport (its retries, rate limit and errors). A GET of a list is read page by page (read.ts);
 * a POST or PATCH with a Key Field is settled by a lookup when its answer is lost (keyField.ts).
 */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const method = readMethod.call(this, itemIndex);
	const path = readPath.call(this, client.baseUrl, itemIndex);
	const query = readQuery.call(this, itemIndex);
	const doing = { action: `${method} ${path}`, noun: 'record' };
	try {
		if (method === 'GET') return await readAnswer.call(this, client, { path, query, doing }, itemIndex);
		const label = argumentLabel(this.getNode(), 'body', 'Body');
		const body = WITH_BODY.includes(method) ? parseJsonObject.call(this, this.getNodeParameter('body', itemIndex, '{}'), itemIndex, label, BODY_EXAMPLE) : undefined;
		const request = { method, path, qs: query, body, itemIndex, expect: 'any' as const, doing: { ...doing, unclearAdvice: NOT_RESENT(method) } };
		const keyField = method === 'POST' || method === 'PATCH' ? readKeyField.call(this, itemIndex) : undefined;
		const keyed = keyField && (method === 'POST' ? keyedPost : keyedPatch);
		const response = keyed ? await keyed.call(this, client, { ...request, body: body ?? {} }, keyField) : await client.request(request);
		if (wantsFullResponse(this, itemIndex)) return [fullResponse(response)];
		const items = answerItems.call(this, itemIndex, response.data);
		return response.recovered ? items.map((item) => ({ ...item, recovered: true })) : items;
	} catch (error) {
		throw naming404(error);
	}
}
