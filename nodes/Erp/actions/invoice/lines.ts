import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, jsonParse } from 'n8n-workflow';

import { isObject } from '../../../shared/transport/types';
import { buildBody } from '../shared/fields';
import { argumentLabel } from '../shared/tool';
import { checkValue } from '../../../shared/values';
import { lineFields } from './fields';

/** Lines as one JSON list: what an AI model fills with a single $fromAI('lines', …, 'json') argument, or an expression maps. */
export const linesJsonProperty: INodeProperties = {
	displayName: 'Lines (JSON)',
	name: 'lines',
	type: 'json',
	default: '[]',
	description:
		'Lines as a JSON list of {description, quantity, unit_price} objects (tax_rate optional, in percent), e.g. [{"description": "Consulting", "quantity": 3, "unit_price": 120}]; they follow the Line Items above',
};

const EXAMPLE = '[{"description": "Consulting", "quantity": 3, "unit_price": 120}]';

function parsed(this: IExecuteFunctions, raw: unknown, label: string, itemIndex: number): unknown {
	if (typeof raw !== 'string') return raw;
	if (raw.trim() === '') return [];
	try {
		return jsonParse(raw);
	} catch (error) {
		throw new NodeOperationError(this.getNode(), `${label} is not valid JSON: ${(error as Error).message}`, {
			itemIndex,
			description: `Give a JSON list of lines such as ${EXAMPLE}.`,
		});
	}
}

/** The API's line fields by their API names (description, quantity, unit_price, tax_rate), checked; others pass on to the ERP. */
function apiLine(this: IExecuteFunctions, line: IDataObject, label: string, itemIndex: number): IDataObject {
	const out: IDataObject = {};
	const kinds = new Map(Object.values(lineFields).map((spec) => [spec.apiName, spec.kind]));
	for (const [name, value] of Object.entries(line)) {
		if (value === null || value === undefined || value === '') continue;
		const kind = kinds.get(name);
		out[name] = (kind ? checkValue.call(this, kind, value, `${label} ${name}`, itemIndex) : value) as IDataObject[string];
	}
	return out;
}

/** Line Items (the editor's list), then Lines (JSON): in the API's form. */
export function readLines(this: IExecuteFunctions, itemIndex: number): IDataObject[] {
	const fromItems = (this.getNodeParameter('lineItems.line', itemIndex, []) as IDataObject[]).map((line) =>
		buildBody.call(this, itemIndex, lineFields, line),
	);
	const label = argumentLabel(this.getNode(), 'lines', 'Lines (JSON)');
	const value = parsed.call(this, this.getNodeParameter('lines', itemIndex, '[]'), label, itemIndex);
	const list = isObject(value) ? [value] : value;
	if (!Array.isArray(list) || !list.every(isObject)) {
		throw new NodeOperationError(this.getNode(), `${label} must be a list of line objects, not ${JSON.stringify(value)}`, {
			itemIndex,
			description: `Give a JSON list such as ${EXAMPLE}.`,
		});
	}
	return [...fromItems, ...list.map((line, index) => apiLine.call(this, line as IDataObject, `${label}, line ${index + 1}:`, itemIndex))];
}
