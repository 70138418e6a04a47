/**
 * The contenders as n8n workflows. Each starts with a production webhook and ends in a Summarize node that
 * counts the records, which the webhook answers with: every contender outputs one item per record, but only
 * the count travels back over HTTP. Execution data is not saved (n8n's advice for high-volume workflows), so
 * that n8n writing 20,000 items to its database is not part of any figure.
 */
import { randomUUID } from 'node:crypto';

import { fieldsParameter } from '../tooling/host/fields';
import { chain, erpNode, node, webhookNode } from '../tooling/host/workflows';
import type { Credential, WorkflowDefinition, WorkflowNode } from '../tooling/host/types';

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

export const splitOut = (field: string, name = 'Split Out') => node(name, 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: field, options: {} });

const count = (field: string) =>
	node('Count', 'n8n-nodes-base.summarize', 1.1, { fieldsToSummarize: { values: [{ aggregation: 'count', field }] }, options: {} });

/** A contender's nodes between the webhook and the count of `countField`, not saving its executions. */
export function workflow(name: string, nodes: WorkflowNode[], countField: string): BenchWorkflow {
	const path = `bench-${name}-${randomUUID()}`;
	const trigger = webhookNode(path);
	trigger.parameters = { ...trigger.parameters, responseData: 'firstEntryJson' };
	const all = [trigger, ...nodes, count(countField)].map((n, i) => ({ ...n, position: [i * 220, 0] as [number, number] }));
	return { definition: { ...chain(`bench ${name}`, all), settings: NOT_SAVED }, path, countField };
}

/**
 * The HTTP Request node's Batching option: `size` items' requests start, then it pauses `intervalMs` before the
 * next batch (it never waits for answers: without Batching, every item's request starts at once).
 */
export interface Batching {
	size: number;
	intervalMs: number;
}

/** An HTTP Request node with the ERP API credential as its predefined credential type, optionally batching. */
function httpRequest(credential: Credential, parameters: Record<string, unknown>, batching?: Batching, name = 'HTTP Request'): WorkflowNode {
	const options = { ...(parameters.options as Record<string, unknown> | undefined) };
	if (batching) options.batching = { batch: { batchSize: batching.size, batchInterval: batching.intervalMs } };
	return {
		...node(name, 'n8n-nodes-base.httpRequest', HTTP_REQUEST_VERSION, {
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'erpApi',
			...parameters,
			options,
		}),
		credentials: { erpApi: { id: credential.id, name: credential.name } },
	};
}

const batchingLabel = (batching?: Batching) => (batching ? `-batch-${batching.size}-${batching.intervalMs}` : '');

/** Contact › Get Many, Return All; Concurrency above 1 reads that many pages at a time. */
export const erpListAll = (credential: Credential, concurrency: number): BenchWorkflow =>
	workflow(
		`erp-list-${concurrency}`,
		[erpNode({ resource: 'contact', operation: 'getAll', returnAll: true, options: { concurrency } }, credential)],
		'id',
	);

/** The same workflow with n8n's default execution settings: a successful execution is saved with its data. */
export const savingExecutions = (bench: BenchWorkflow): BenchWorkflow => ({ ...bench, definition: { ...bench.definition, settings: {} } });

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

/**
 * Every page as one item (the webhook body `{pages: [{page: 1}, …]}`), so that Batching can read several at once;
 * the bench hands it the page numbers, which a workflow would first have to work out from the total.
 */
export const httpListPages = (credential: Credential, baseUrl: string, perPage: number, batching: Batching): BenchWorkflow =>
	workflow(
		`http-list-pages${batchingLabel(batching)}`,
		[
			splitOut('body.pages', 'Pages'),
			httpRequest(
				credential,
				{
					method: 'GET',
					url: `${baseUrl}/contacts`,
					sendQuery: true,
					queryParameters: {
						parameters: [
							{ name: 'page', value: '={{ $json.page }}' },
							{ name: 'per_page', value: String(perPage) },
						],
					},
				},
				batching,
			),
			splitOut('data'),
		],
		'id',
	);

/** How the ERP node takes the rows' fields: four expressions, or Map Automatically (the rows carry API names). */
export type ErpMapping = 'expressions' | 'auto';

/** The ERP node's Fields parameter (n8n's resource mapper) for each way. */
const ERP_FIELDS: Record<ErpMapping, ReturnType<typeof fieldsParameter>> = {
	expressions: fieldsParameter('contact', Object.fromEntries(FIELDS.map((name) => [name, `={{ $json.${name} }}`]))),
	auto: fieldsParameter('contact', null, 'autoMapInputData'),
};

/** The webhook body `{rows: [...]}` becomes one item per row; each contender sends the same four fields. */
export const erpCreate = (credential: Credential, concurrency: number, mapping: ErpMapping = 'expressions'): BenchWorkflow =>
	workflow(
		`erp-create-${mapping}-${concurrency}`,
		[
			splitOut('body.rows'),
			erpNode({ resource: 'contact', operation: 'create', columns: ERP_FIELDS[mapping], options: { concurrency } }, credential),
		],
		'id',
	);

/**
 * The HTTP Request node posting one contact per item: as it comes, or with Batching, optionally with the node
 * setting Retry On Fail at the values the toggle starts with (3 tries, 1 s apart).
 */
export function httpCreate(credential: Credential, baseUrl: string, { retryOnFail = false, batching }: { retryOnFail?: boolean; batching?: Batching } = {}): BenchWorkflow {
	const parameters = {
		method: 'POST',
		url: `${baseUrl}/contacts`,
		sendBody: true,
		bodyParameters: { parameters: FIELDS.map((name) => ({ name, value: `={{ $json.${name} }}` })) },
	};
	const request = httpRequest(credential, parameters, batching);
	const nodes = [splitOut('body.rows'), retryOnFail ? { ...request, retryOnFail, maxTries: 3, waitBetweenTries: 1000 } : request];
	// The node answers the API's envelope {success, data}: one per created contact.
	return workflow(`http-create${retryOnFail ? '-retry' : ''}${batchingLabel(batching)}`, nodes, 'data');
}

/** The webhook body `{rows: [{contact_id, lines}, …]}`: each row becomes an invoice, which is then sent. */
export const erpCreateAndSend = (credential: Credential, concurrency: number): BenchWorkflow =>
	workflow(
		`erp-invoice-send-${concurrency}`,
		[
			splitOut('body.rows'),
			erpNode(
				{
					resource: 'invoice',
					operation: 'create',
					contactId: { __rl: true, mode: 'id', value: '={{ $json.contact_id }}' },
					additionalFields: { extraFields: '={{ { lines: $json.lines } }}' },
					options: { concurrency },
				},
				credential,
				'Create Invoice',
			),
			erpNode(
				{
					resource: 'invoice',
					operation: 'send',
					invoiceId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
					additionalFields: {},
					options: { concurrency },
				},
				credential,
				'Send Invoice',
			),
		],
		'id',
	);

/** The same with two HTTP Request nodes: the row as the JSON body, then the send of the invoice it created. */
export const httpCreateAndSend = (credential: Credential, baseUrl: string, batching?: Batching): BenchWorkflow =>
	workflow(
		`http-invoice-send${batchingLabel(batching)}`,
		[
			splitOut('body.rows'),
			httpRequest(
				credential,
				{ method: 'POST', url: `${baseUrl}/invoices`, sendBody: true, specifyBody: 'json', jsonBody: '={{ $json }}' },
				batching,
				'Create Invoice',
			),
			httpRequest(credential, { method: 'POST', url: `=${baseUrl}/invoices/{{ $json.data.id }}/send` }, batching, 'Send Invoice'),
		],
		'data',
	);
