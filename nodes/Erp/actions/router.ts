import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../../shared/transport/errors';
import { forEachConcurrently } from '../../shared/concurrently';
import { ErpClient } from '../../shared/transport/client';
import type { TransportOptions } from '../../shared/transport/types';
import { CONCURRENCY_LIMIT, DEFAULT_TRANSPORT_OPTIONS } from '../../shared/transport/types';
import { MAX_RETRIES_LIMIT } from '../../shared/requestOptions';
import * as contact from './contact/Contact.resource';
import * as customApiCall from './custom/CustomApiCall.resource';
import * as employee from './employee/Employee.resource';
import * as invoice from './invoice/Invoice.resource';
import type { ErpResource, OperationModule } from './node.type';
import * as product from './product/Product.resource';
import { namingIdArgument } from './shared/tool';

const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

const resources: { [R in ErpResource]: Record<string, OperationModule> } = {
	contact: contact.operations,
	invoice: invoice.operations,
	product: product.operations,
	employee: employee.operations,
	customApiCall: customApiCall.operations,
};

function wholeNumber(this: IExecuteFunctions, value: unknown, label: string, min: number, max: number): number {
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
		throw new NodeOperationError(this.getNode(), `${label} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`, {
			itemIndex: 0,
		});
	}
	return value;
}

/** Options that shape the whole run are read once, from the first item. */
function readRunOptions(this: IExecuteFunctions): Pick<TransportOptions, 'concurrency' | 'maxRetries' | 'timeoutMs' | 'pageSize'> {
	const options = this.getNodeParameter('options', 0, {}) as Record<string, unknown>;
	return {
		concurrency: wholeNumber.call(this, options.concurrency ?? DEFAULT_TRANSPORT_OPTIONS.concurrency, 'Concurrency', 1, CONCURRENCY_LIMIT),
		maxRetries: wholeNumber.call(this, options.maxRetries ?? DEFAULT_TRANSPORT_OPTIONS.maxRetries, 'Max Retries', 0, MAX_RETRIES_LIMIT),
		timeoutMs: wholeNumber.call(this, options.timeout ?? DEFAULT_TRANSPORT_OPTIONS.timeoutMs, 'Timeout', 1, 3_600_000),
		pageSize: options.pageSize === undefined ? undefined : wholeNumber.call(this, options.pageSize, 'Page Size', 1, 100_000),
	};
}

function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const { message, description, httpCode } = error as { message?: string; description?: string | null; httpCode?: string | null };
	const json: IDataObject = { error: message ?? String(error) };
	if (description) json.description = description;
	if (httpCode) json.httpCode = httpCode;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * The node's one item loop: every input item runs the chosen operation (up to Concurrency at a time) and
 * yields its output items, paired to it. With Continue On Fail a failed item yields one error item instead.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as ErpResource;
	// The value of n8n's own "Custom API Call" choice, which runs nothing here (see custom/CustomApiCall.resource.ts).
	if ((resource as string) === CUSTOM_API_CALL) {
		throw new NodeOperationError(
			this.getNode(),
			"This node was saved with n8n's own Custom API Call choice, which runs nothing: choose the node's Resource › Custom API Call, then its Method and Path",
		);
	}
	const operation = this.getNodeParameter('operation', 0) as string;
	const run = resources[resource]?.[operation];
	if (!run) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}

	const options = readRunOptions.call(this);
	// Created once, awaited per item: a credential problem then fails each item the same way.
	const client = ErpClient.create(this, options);
	client.catch(() => undefined);

	const outputs: INodeExecutionData[][] = new Array(items.length);
	await forEachConcurrently(items.length, options.concurrency, async (itemIndex) => {
		try {
			const erp = await client;
			const records = await run.execute.call(this, erp, itemIndex);
			outputs[itemIndex] = records.map((json) => ({ json, pairedItem: { item: itemIndex } }));
		} catch (error) {
			if (this.continueOnFail()) {
				outputs[itemIndex] = [errorItem(error, itemIndex)];
				return;
			}
			throw namingIdArgument(this.getNode(), asNodeError(this.getNode(), error, itemIndex));
		}
	});
	return [outputs.flat()];
}
