import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { capitalize } from '../../transport/target';
import type { OperationModule } from '../types';
import type { FieldSpecs } from './fields';
import { buildBody, fieldsCollection } from './fields';
import { fetchList, filtersCollection, getMany, listOutput, readLimit, returnAllAndLimit } from './listing';
import type { RecordNoun } from './locator';
import { readRecordId, recordLocator } from './locator';

/** The operations that are the same for every resource but for the noun: written once, used by each resource. */

export const collectionPath = (noun: RecordNoun) => `/${noun}s`;
export const searchMethodOf = (noun: RecordNoun) => `search${capitalize(noun)}s`;

function shownFor(noun: RecordNoun, operation: string, properties: INodeProperties[]): INodeProperties[] {
	return updateDisplayOptions({ show: { resource: [noun], operation: [operation] } }, properties);
}

export function getOneOperation(noun: RecordNoun): OperationModule {
	return {
		description: shownFor(noun, 'get', [recordLocator(noun, searchMethodOf(noun), `The ${noun} to get`)]),
		async execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
			const id = readRecordId.call(this, noun, itemIndex);
			const response = await client.request({ method: 'GET', path: `${collectionPath(noun)}/${id}`, itemIndex });
			return [response.data as IDataObject];
		},
	};
}

export function getManyOperation(noun: RecordNoun, filters: FieldSpecs): OperationModule {
	return {
		description: shownFor(noun, 'getAll', [...returnAllAndLimit(), filtersCollection(filters)]),
		async execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
			return await getMany.call(this, client, itemIndex, collectionPath(noun), filters);
		},
	};
}

export function updateOperation(noun: RecordNoun, fields: FieldSpecs): OperationModule {
	return {
		description: shownFor(noun, 'update', [
			recordLocator(noun, searchMethodOf(noun), `The ${noun} to update`),
			fieldsCollection(fields, { name: 'updateFields', displayName: 'Update Fields' }),
		]),
		async execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
			const id = readRecordId.call(this, noun, itemIndex);
			const values = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
			const body = buildBody.call(this, itemIndex, fields, values);
			if (Object.keys(body).length === 0) {
				throw new NodeOperationError(this.getNode(), 'Update Fields is empty: add at least one field to change', {
					itemIndex,
					description: `Nothing was sent to the ERP. Add a field under Update Fields and give it a value, or remove this node if the ${noun} needs no change.`,
				});
			}
			const response = await client.request({ method: 'PUT', path: `${collectionPath(noun)}/${id}`, body, itemIndex });
			return [response.data as IDataObject];
		},
	};
}

/** A list that belongs to one record (a product's stock rows, an employee's payroll): one item per row. */
export function recordListOperation(
	noun: RecordNoun,
	operation: string,
	subPath: string,
	locatorDescription: string,
	withLimit: boolean,
): OperationModule {
	const properties = [recordLocator(noun, searchMethodOf(noun), locatorDescription)];
	return {
		description: shownFor(noun, operation, withLimit ? [...properties, ...returnAllAndLimit()] : properties),
		async execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
			const id = readRecordId.call(this, noun, itemIndex);
			const limit = withLimit ? readLimit.call(this, itemIndex) : undefined;
			const rows = await fetchList(client, `${collectionPath(noun)}/${id}/${subPath}`, itemIndex, {}, limit);
			return listOutput.call(this, itemIndex, rows);
		},
	};
}

/**
 * An action on one record (send an invoice, mark it paid): POST `/<noun>s/<id>/<action>` with the given
 * optional fields as its body.
 */
export function recordActionOperation(
	noun: RecordNoun,
	operation: string,
	action: string,
	locatorDescription: string,
	fields: FieldSpecs,
): OperationModule {
	return {
		description: shownFor(noun, operation, [
			recordLocator(noun, searchMethodOf(noun), locatorDescription),
			fieldsCollection(fields, { freeForm: false }),
		]),
		async execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
			const id = readRecordId.call(this, noun, itemIndex);
			const body = buildBody.call(this, itemIndex, fields, this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject);
			const response = await client.request({ method: 'POST', path: `${collectionPath(noun)}/${id}/${action}`, body, itemIndex });
			return [response.data as IDataObject];
		},
	};
}
