import type { FieldType, IDataObject, IExecuteFunctions, ResourceMapperField } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from '../../../shared/transport/types';
import type { FieldSpecs } from './fields';
import { runWideParameter } from './runWide';
import { argumentLabel } from './tool';
import type { FieldKind } from '../../../shared/values';
import { checkValue, isBlank } from '../../../shared/values';

const CUSTOM_FIELDS = 'custom_fields';

const MAPPER_TYPE: Record<FieldKind, FieldType> = {
	text: 'string',
	email: 'string',
	phone: 'string',
	date: 'dateTime',
	dateTime: 'dateTime',
	number: 'number',
	boolean: 'boolean',
	recordId: 'number',
	object: 'object',
};

/**
 * What an object or array field starts with. n8n's editor shows such a field as a JSON editor and marks it
 * "Unexpected end of JSON input" while it is empty; an empty object or list is valid JSON, and is not sent.
 */
export function emptyJsonDefault(type: FieldType): Pick<ResourceMapperField, 'defaultValue'> {
	if (type === 'object') return { defaultValue: '{}' };
	if (type === 'array') return { defaultValue: '[]' };
	return {};
}

const isEmptyJson = (value: unknown) => (Array.isArray(value) ? value.length === 0 : isObject(value) && Object.keys(value).length === 0);

/** The fields Create lists for a resource: the known ones, then custom_fields. */
export function knownColumns(specs: FieldSpecs): ResourceMapperField[] {
	const known: ResourceMapperField[] = Object.values(specs).map((spec) => ({
		id: spec.apiName,
		displayName: spec.apiName,
		type: MAPPER_TYPE[spec.kind],
		required: spec.usuallyRequired === true,
		defaultMatch: false,
		display: true,
		...emptyJsonDefault(MAPPER_TYPE[spec.kind]),
	}));
	const customFields: ResourceMapperField = { id: CUSTOM_FIELDS, displayName: CUSTOM_FIELDS, type: 'object', required: false, defaultMatch: false, display: true };
	return [...known, { ...customFields, ...emptyJsonDefault('object') }];
}

type MappedValue = { kind?: FieldKind; value: unknown; name: string };

/** Checks one value the way its field asks; unknown fields (found in the ERP's records) go as they are. */
function checked(this: IExecuteFunctions, { kind, value, name }: MappedValue, label: string, itemIndex: number): unknown {
	if (name === CUSTOM_FIELDS) return checkValue.call(this, 'object', value, label, itemIndex);
	return kind ? checkValue.call(this, kind, value, label, itemIndex) : value;
}

function kindsByApiName(specs: FieldSpecs): Map<string, FieldKind> {
	return new Map(Object.values(specs).map((spec) => [spec.apiName, spec.kind]));
}

function fromFieldsBelow(this: IExecuteFunctions, itemIndex: number, specs: FieldSpecs): IDataObject {
	const values = (this.getNodeParameter('columns.value', itemIndex, {}) ?? {}) as IDataObject;
	const kinds = kindsByApiName(specs);
	const body: IDataObject = {};
	for (const [name, value] of Object.entries(values)) {
		if (isBlank(value) || isEmptyJson(value)) continue;
		const label = argumentLabel(this.getNode(), `columns.value.${name}`, `Field ${name}`);
		body[name] = checked.call(this, { kind: kinds.get(name), value, name }, label, itemIndex) as IDataObject[string];
	}
	return body;
}

/** The field list stored with the node (what the editor showed), for input fields that are not known ones. */
function listedNames(this: IExecuteFunctions, itemIndex: number): Set<string> {
	const schema = runWideParameter.call(this, 'columns.schema', itemIndex, []) as Array<{ id?: unknown }> | null;
	return new Set((schema ?? []).map((field) => String(field.id)));
}

/**
 * The API body from the input item's own fields, checked like the fields below. An input field that is not
 * listed is refused by name, ignored or sent, as Other Input Fields says: never dropped silently.
 */
function fromInputFields(this: IExecuteFunctions, itemIndex: number, specs: FieldSpecs, noun: string): IDataObject {
	const ignored = new Set(
		String(runWideParameter.call(this, 'ignoreFields', itemIndex, ''))
			.split(',')
			.map((name) => name.trim())
			.filter(Boolean),
	);
	const kinds = kindsByApiName(specs);
	const body: IDataObject = {};
	const others: string[] = [];
	let listed: Set<string> | undefined;
	for (const [name, value] of Object.entries(this.getInputData()[itemIndex]?.json ?? {})) {
		if (ignored.has(name) || isBlank(value)) continue;
		const known = kinds.has(name) || name === CUSTOM_FIELDS || (listed ??= listedNames.call(this, itemIndex)).has(name);
		if (known) body[name] = checked.call(this, { kind: kinds.get(name), value, name }, `Input field ${name}`, itemIndex) as IDataObject[string];
		else others.push(name);
	}
	if (others.length === 0) return body;
	const policy = runWideParameter.call(this, 'otherInputFields', itemIndex, 'error') as 'error' | 'ignore' | 'send';
	if (policy === 'send') for (const name of others) body[name] = this.getInputData()[itemIndex].json[name];
	if (policy !== 'error') return body;
	const many = others.length > 1;
	throw new NodeOperationError(
		this.getNode(),
		`Input field${many ? 's' : ''} ${others.map((name) => `"${name}"`).join(', ')} ${many ? 'are not fields' : 'is not a field'} of a ${noun}`,
		{
			itemIndex,
			description: `Rename ${many ? 'them' : 'it'} to one of ${[...kinds.keys(), CUSTOM_FIELDS].join(', ')}, list ${many ? 'them' : 'it'} in Input Fields to Ignore, or choose another answer under Other Input Fields.`,
		},
	);
}

/** The body of a new record from Fields, whichever mapping mode the user chose. */
export function mappedBody(this: IExecuteFunctions, itemIndex: number, specs: FieldSpecs, noun: string): IDataObject {
	const mode = runWideParameter.call(this, 'columns.mappingMode', itemIndex, 'defineBelow') as string;
	return mode === 'autoMapInputData' ? fromInputFields.call(this, itemIndex, specs, noun) : fromFieldsBelow.call(this, itemIndex, specs);
}
