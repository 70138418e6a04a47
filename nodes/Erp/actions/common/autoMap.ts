import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FieldSpecs } from './fields';
import type { RecordNoun } from './locator';
import { isBlank, validateField } from './validate';

export type MappingMode = 'defineBelow' | 'autoMapInputData';

const CUSTOM_FIELDS = 'custom_fields';

const acceptedNames = (specs: FieldSpecs) => [...Object.values(specs).map((spec) => spec.apiName), CUSTOM_FIELDS];

/**
 * Create's "Mapping Mode" and the parameters of its automatic mode. Map Automatically reads no expression per
 * field, which is most of n8n's cost per item in a large import (bench/README.md).
 */
export function mappingProperties(noun: RecordNoun, specs: FieldSpecs): INodeProperties[] {
	const auto = { show: { mappingMode: ['autoMapInputData'] } };
	return [
		{
			displayName: 'Mapping Mode',
			name: 'mappingMode',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'Map Automatically',
					value: 'autoMapInputData',
					description: `Send the input item's fields whose names are the ERP's field names; the fastest way to import many ${noun}s`,
				},
				{
					name: 'Map Each Field Below',
					value: 'defineBelow',
					description: 'Set each field in its own parameter, with expressions to take values from the input',
				},
			],
			default: 'defineBelow',
			description: `How the fields of the new ${noun} are set`,
		},
		{
			displayName: `Name the input fields ${acceptedNames(specs).join(', ')}. Any other input field is refused unless listed below.`,
			name: 'autoMapNotice',
			type: 'notice',
			default: '',
			displayOptions: auto,
		},
		{
			displayName: 'Input Fields to Ignore',
			name: 'ignoreFields',
			type: 'string',
			default: '',
			placeholder: 'e.g. row_number, source',
			description: 'Comma-separated names of input fields that are not ERP fields, left out of the request',
			displayOptions: auto,
		},
	];
}

function customFields(this: IExecuteFunctions, value: unknown, itemIndex: number): IDataObject {
	if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as IDataObject;
	throw new NodeOperationError(this.getNode(), `Input field ${CUSTOM_FIELDS} must be an object such as {"vat_number": "DE123"}`, {
		itemIndex,
	});
}

/**
 * The API body from the input item's own fields, matched by their API names (first_name, email, …) and checked
 * as in Map Each Field Below. An input field that is not an ERP field is refused, not silently dropped.
 */
export function autoMappedBody(this: IExecuteFunctions, itemIndex: number, noun: RecordNoun, specs: FieldSpecs): IDataObject {
	const ignored = new Set(
		String(this.getNodeParameter('ignoreFields', itemIndex, ''))
			.split(',')
			.map((name) => name.trim())
			.filter(Boolean),
	);
	const byApiName = new Map(Object.values(specs).map((spec) => [spec.apiName, spec]));
	const body: IDataObject = {};
	const unknown: string[] = [];
	for (const [name, value] of Object.entries(this.getInputData()[itemIndex]?.json ?? {})) {
		if (ignored.has(name) || isBlank(value)) continue;
		const spec = byApiName.get(name);
		if (spec) body[name] = validateField.call(this, spec.kind, value, `Input field ${name}`, itemIndex) as IDataObject[string];
		else if (name === CUSTOM_FIELDS) body[name] = customFields.call(this, value, itemIndex);
		else unknown.push(name);
	}
	if (unknown.length) {
		const names = unknown.map((name) => `"${name}"`).join(', ');
		throw new NodeOperationError(
			this.getNode(),
			`Input field${unknown.length > 1 ? 's' : ''} ${names} ${unknown.length > 1 ? 'are not ERP fields' : 'is not an ERP field'} of a ${noun}`,
			{
				itemIndex,
				description: `Rename ${unknown.length > 1 ? 'them' : 'it'} to one of ${acceptedNames(specs).join(', ')}, or list ${unknown.length > 1 ? 'them' : 'it'} in Input Fields to Ignore.`,
			},
		);
	}
	return body;
}
