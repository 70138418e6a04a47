/**
 * The contenders as n8n workflows. Each starts with a production webhook and ends in a Summarize node that
 * counts the records, which the webhook answers with: every contender outputs one item per record, but only
 * the count travels back over HTTP. Execution data is not saved (n8n's advice for high-volume workflows), so
 * that n8n writing 20,000 items to its database is not part of any figure.
 */
import { randomUUID } from 'node:crypto';

import { chain, erpNode, webhookNode } from '../e2e/support/workflows';
import type { Credential, WorkflowDefinition, WorkflowNode } from '../e2e/host/types';

/** Node settings beside `parameters` that WorkflowNode does not name. */
type BenchNode = WorkflowNode & { retryOnFail?: boolean; maxTries?: number; waitBetweenTries?: number };

export interface BenchWorkflow {
	definition: WorkflowDefinition;
	/** POST /webhook/<path> runs it. */
	path: string;
	/** The field of each output record that the Summarize node counts: the answer is `{count_<field>: n}`. */
	countField: string;
}

const NOT_SAVED = {
	saveDataSuccessExecution: 'none',
	saveDataErrorExecution: 'none',
	saveManualExecutions: false,
	saveExecutionProgress: false,
};

const HTTP_REQUEST_VERSION = 4.5;
const FIELDS = ['first_name', 'last_name', 'email', 'company'] as const;

function node(name: string, type: string, typeVersion: number, parameters: Record<string, unknown>): BenchNode {
	return { id: randomUUID(), name, type, typeVersion, position: [0, 0], parameters };
}

const splitOut = (field: string) => node('Split Out', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: field, options: {} });

const count = (field: string) =>
	node('Count', 'n8n-nodes-base.summarize', 1.1, { fieldsToSummarize: { values: [{ aggregation: 'count', field }] }, options: {} });

function workflow(name: string, nodes: BenchNode[], countField: string): BenchWorkflow {
	const path = `bench-${name}-${randomUUID()}`;
	const trigger = webhookNode(path);
	trigger.parameters = { ...trigger.parameters, responseData: 'firstEntryJson' };
	const all = [trigger, ...nodes, count(countField)].map((n, i) => ({ ...n, position: [i * 220, 0] as [number, number] }));
	return { definition: { ...chain(`bench ${name}`, all), settings: NOT_SAVED }, path, countField };
}

/** An HTTP Request node with the ERP API credential as its predefined credential type. */
function httpRequest(credential: Credential, parameters: Record<string, unknown>): BenchNode {
	return {
		...node('HTTP Request', 'n8n-nodes-base.httpRequest', HTTP_REQUEST_VERSION, {
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'erpApi',
			...parameters,
		}),
		credentials: { erpApi: { id: credential.id, name: credential.name } },
	};
}

/** Contact › Get Many, Return All; Concurrency above 1 reads that many pages at a time. */
export const erpListAll = (credential: Credential, concurrency: number): BenchWorkflow =>
	workflow(
		`erp-list-${concurrency}`,
		[erpNode({ resource: 'contact', operation: 'getAll', returnAll: true, options: { concurrency } }, credential)],
		'id',
	);

/** Pagination as a skilled user sets it up: the page number from $pageCount, done when meta says so. */
export const httpListAll = (credential: Credential, baseUrl: string, perPage: number): BenchWorkflow =>
	workflow(
		'http-list',
		[
			httpRequest(credential, {
				method: 'GET',
				url: `${baseUrl}/contacts`,
				sendQuery: true,
				queryParameters: { parameters: [{ name: 'per_page', value: String(perPage) }] },
				options: {
					pagination: {
						pagination: {
							paginationMode: 'updateAParameterInEachRequest',
							parameters: { parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }] },
							paginationCompleteWhen: 'other',
							completeExpression: '={{ $response.body.meta.page * $response.body.meta.per_page >= $response.body.meta.total }}',
						},
					},
				},
			}),
			splitOut('data'),
		],
		'id',
	);

/** How the ERP node takes the rows' fields: four expressions, or Map Automatically (the rows carry API names). */
export type ErpMapping = 'expressions' | 'auto';

const ERP_FIELDS: Record<ErpMapping, Record<string, unknown>> = {
	expressions: {
		firstName: '={{ $json.first_name }}',
		lastName: '={{ $json.last_name }}',
		email: '={{ $json.email }}',
		company: '={{ $json.company }}',
		additionalFields: {},
	},
	auto: { mappingMode: 'autoMapInputData' },
};

/** The webhook body `{rows: [...]}` becomes one item per row; each contender sends the same four fields. */
export const erpCreate = (credential: Credential, concurrency: number, mapping: ErpMapping = 'expressions'): BenchWorkflow =>
	workflow(
		`erp-create-${mapping}-${concurrency}`,
		[
			splitOut('body.rows'),
			erpNode({ resource: 'contact', operation: 'create', ...ERP_FIELDS[mapping], options: { concurrency } }, credential),
		],
		'id',
	);

/**
 * The HTTP Request node as it comes (one request per item, no batching), optionally with the node setting
 * Retry On Fail at the values the toggle starts with (3 tries, 1 s apart).
 */
export function httpCreate(credential: Credential, baseUrl: string, retryOnFail: boolean): BenchWorkflow {
	const request = httpRequest(credential, {
		method: 'POST',
		url: `${baseUrl}/contacts`,
		sendBody: true,
		bodyParameters: { parameters: FIELDS.map((name) => ({ name, value: `={{ $json.${name} }}` })) },
		options: {},
	});
	const nodes = [splitOut('body.rows'), retryOnFail ? { ...request, retryOnFail, maxTries: 3, waitBetweenTries: 1000 } : request];
	// The node answers the API's envelope {success, data}: one per created contact.
	return workflow(retryOnFail ? 'http-create-retry' : 'http-create', nodes, 'data');
}
