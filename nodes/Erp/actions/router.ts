import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ErpClient } from '../transport/client';
import { asNodeError } from '../transport/errors';
import { forEachConcurrently } from '../transport/flowControl';
import * as contact from './contact/Contact.resource';
import * as employee from './employee/Employee.resource';
import * as invoice from './invoice/Invoice.resource';
import type { ErpResource, OperationModule } from './node.type';
import * as product from './product/Product.resource';
import { readRunOptions } from './shared/options';

const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

const resources: { [R in ErpResource]: Record<string, OperationModule> } = {
	contact: contact.operations,
	invoice: invoice.operations,
	product: product.operations,
	employee: employee.operations,
};

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
	// n8n adds a "Custom API Call" choice to every node whose credential the HTTP Request node can use.
	if ((resource as string) === CUSTOM_API_CALL) {
		throw new NodeOperationError(
			this.getNode(),
			'Custom API Call runs in an HTTP Request node: add one and choose the ERP API credential under Predefined Credential Type',
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
			// Waits while the ERP's rate-limit window is used up, before the item's parameters are read.
			const records = await erp.admitted(() => run.execute.call(this, erp, itemIndex));
			outputs[itemIndex] = records.map((json) => ({ json, pairedItem: { item: itemIndex } }));
		} catch (error) {
			if (this.continueOnFail()) {
				outputs[itemIndex] = [errorItem(error, itemIndex)];
				return;
			}
			throw asNodeError(this.getNode(), error, itemIndex);
		}
	});
	return [outputs.flat()];
}
