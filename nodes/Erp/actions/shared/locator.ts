import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { capitalize, type RecordNoun } from '../../../shared/records';
import { argumentLabel, isToolNode } from './tool';

/** The value of a resource locator (`{__rl, mode, value}`), or the value itself when it is plain. */
export function locatorValue(value: unknown): unknown {
	return typeof value === 'object' && value !== null && '__rl' in value ? (value as { value?: unknown }).value : value;
}

/** Reads a record ID and checks it is a positive integer (the document: "{id} is the integer identifier"). */
export function parseRecordId(this: IExecuteFunctions, value: unknown, label: string, itemIndex: number): number {
	const fix = isToolNode(this.getNode())
		? 'Give the numeric ID, e.g. 42; look the record up with a search tool when you only know its name or email.'
		: 'Pick the record from the list or enter its numeric ID.';
	const fail = (problem: string) =>
		new NodeOperationError(this.getNode(), `${label} ${problem}`, { itemIndex, description: `ERP IDs are whole numbers greater than 0. ${fix}` });
	if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
		throw fail(`${value.toLocaleString('en-US', { useGrouping: false })} is too large to be an ERP ID`);
	}
	if (value !== null && typeof value === 'object') {
		throw fail(`must be one ID, not ${Array.isArray(value) ? 'a list' : 'an object'}: map a single field, e.g. {{ $json.id }}`);
	}
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (text === '') throw fail('is empty: choose a record from the list or enter its ID, e.g. 42');
	if (!/^-?\d+$/.test(text)) throw fail(`"${text}" is not a whole number: enter the numeric ID, e.g. 42`);
	const id = Number(text);
	if (id <= 0) throw fail(`${text} must be greater than 0`);
	if (!Number.isSafeInteger(id)) throw fail(`${text} is too large to be an ERP ID`);
	return id;
}

export function readRecordId(this: IExecuteFunctions, noun: RecordNoun, itemIndex: number): number {
	const value = this.getNodeParameter(`${noun}Id`, itemIndex, undefined, { extractValue: true });
	return parseRecordId.call(this, value, argumentLabel(this.getNode(), `${noun}Id`, `${capitalize(noun)} ID`), itemIndex);
}
