import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import type { OperationModule } from '../types';
import type { MappingMode } from './autoMap';
import { autoMappedBody, mappingProperties } from './autoMap';
import type { FieldSpecs } from './fields';
import { buildBody, fieldsCollection, requireFields } from './fields';
import type { RecordNoun } from './locator';

function definedBody(this: IExecuteFunctions, itemIndex: number, fields: FieldSpecs, topLevel: string[]): IDataObject {
	const values: IDataObject = { ...(this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject) };
	for (const name of topLevel) values[name] = this.getNodeParameter(name, itemIndex, '');
	return buildBody.call(this, itemIndex, fields, values);
}

/**
 * Create for a resource whose body is its fields: `topLevel` fields are parameters of their own (the
 * `required` ones marked so), the others go under Additional Fields; or, with Map Automatically, the input
 * item's fields by their API names.
 */
export function createOperation(
	noun: RecordNoun,
	fields: FieldSpecs,
	topLevel: string[],
	required: string[],
): OperationModule {
	const additional = Object.fromEntries(Object.entries(fields).filter(([name]) => !topLevel.includes(name)));
	const belowOnly = { show: { mappingMode: ['defineBelow'] } };
	const properties: INodeProperties[] = [
		...mappingProperties(noun, fields),
		...updateDisplayOptions(belowOnly, [
			...topLevel.map((name) => ({ ...fields[name].property, required: required.includes(name) })),
			fieldsCollection(additional),
		]),
	];
	return {
		description: updateDisplayOptions({ show: { resource: [noun], operation: ['create'] } }, properties),
		async execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
			const auto = (this.getNodeParameter('mappingMode', itemIndex, 'defineBelow') as MappingMode) === 'autoMapInputData';
			const body = auto ? autoMappedBody.call(this, itemIndex, noun, fields) : definedBody.call(this, itemIndex, fields, topLevel);
			requireFields.call(this, itemIndex, fields, body, required, auto);
			return [(await client.request({ method: 'POST', path: `/${noun}s`, body, itemIndex })).data as IDataObject];
		},
	};
}
