import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, jsonParse } from 'n8n-workflow';

import { argumentLabel } from './tool';
import type { FieldKind } from '../../../shared/values';
import { checkValue, isBlank } from '../../../shared/values';

/** A record field: its editor parameter, its name in the API and how its value is checked. */
export interface FieldSpec {
	apiName: string;
	kind: FieldKind;
	property: INodeProperties;
	/** Marked required in Create's field list: the sandbox ERP needs it. Only a hint; the ERP's 422 decides. */
	usuallyRequired?: boolean;
}

export type FieldSpecs = Record<string, FieldSpec>;

/** A JSON parameter that must hold an object (blank: an empty one), or an error naming it with an example. */
export function parseJsonObject(this: IExecuteFunctions, raw: unknown, itemIndex: number, label: string, example: string): IDataObject {
	if (isBlank(raw)) return {};
	let parsed: unknown = raw;
	if (typeof raw === 'string') {
		try {
			parsed = jsonParse(raw);
		} catch (error) {
			throw new NodeOperationError(this.getNode(), `${label} is not valid JSON: ${(error as Error).message}`, {
				itemIndex,
				description: `Write a JSON object such as ${example}, with double quotes around names and text.`,
			});
		}
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new NodeOperationError(this.getNode(), `${label} must be a JSON object such as ${example}`, { itemIndex });
	}
	return parsed as IDataObject;
}

function readCustomFields(this: IExecuteFunctions, raw: unknown, itemIndex: number): IDataObject | undefined {
	const entries = ((raw as { field?: Array<{ name?: unknown; value?: unknown }> } | undefined)?.field ?? []).filter(
		(entry) => !isBlank(entry.name),
	);
	if (!entries.length) return undefined;
	const customFields: IDataObject = {};
	for (const { name, value } of entries) {
		const key = String(name).trim();
		if (key in customFields) {
			throw new NodeOperationError(this.getNode(), `Custom Fields has "${key}" twice: keep one of them`, { itemIndex });
		}
		customFields[key] = value as string;
	}
	return customFields;
}

/**
 * Turns parameter values into an API body: known fields are checked and renamed, Custom Fields become
 * custom_fields, and Extra Fields (JSON) fills in whatever the parameters do not set. Blank values are not sent.
 */
export function buildBody(this: IExecuteFunctions, itemIndex: number, specs: FieldSpecs, values: IDataObject, collection?: string): IDataObject {
	const { customFields, extraFields, ...known } = values;
	const body: IDataObject = { ...parseJsonObject.call(this, extraFields, itemIndex, 'Extra Fields (JSON)', '{"tags": ["vip"]}') };
	const custom = readCustomFields.call(this, customFields, itemIndex);
	if (custom) body.custom_fields = { ...(body.custom_fields as IDataObject | undefined), ...custom };
	for (const [name, value] of Object.entries(known)) {
		const spec = specs[name];
		if (!spec || isBlank(value)) continue;
		const label = collection ? argumentLabel(this.getNode(), `${collection}.${name}`, spec.property.displayName) : spec.property.displayName;
		body[spec.apiName] = checkValue.call(this, spec.kind, value, label, itemIndex) as IDataObject[string];
	}
	return body;
}
