import type { FieldType, IDataObject, ILoadOptionsFunctions, ResourceMapperField, ResourceMapperFields } from 'n8n-workflow';

import { contactFields } from '../actions/contact/fields';
import { listPath as contacts } from '../actions/contact/getAll.operation';
import { employeeFields } from '../actions/employee/fields';
import { listPath as employees } from '../actions/employee/getAll.operation';
import { productFields } from '../actions/product/fields';
import { listPath as products } from '../actions/product/getAll.operation';
import { knownColumns } from '../actions/shared/columns';
import type { FieldSpecs } from '../actions/shared/fields';
import { ASSIGNED_FIELDS } from '../actions/shared/update';
import { ErpClient } from '../transport/client';

function typeOf(value: unknown): FieldType {
	if (typeof value === 'number') return 'number';
	if (typeof value === 'boolean') return 'boolean';
	if (Array.isArray(value)) return 'array';
	if (typeof value === 'object' && value !== null) return 'object';
	return 'string';
}

/** Fields the ERP's own records have beyond the known ones (read from its first page), offered under "Add field". */
async function fieldsOfRecords(ctx: ILoadOptionsFunctions, path: string, known: Set<string>): Promise<ResourceMapperField[]> {
	try {
		const client = await ErpClient.create(ctx, { maxRetries: 1, timeoutMs: 15_000 });
		const { data } = await client.request({ method: 'GET', path });
		const found = new Map<string, FieldType>();
		for (const record of Array.isArray(data) ? (data as IDataObject[]) : []) {
			for (const [name, value] of Object.entries(record)) {
				if (known.has(name) || ASSIGNED_FIELDS.includes(name) || found.has(name) || value === null) continue;
				found.set(name, typeOf(value));
			}
		}
		return [...found].map(([id, type]) => ({ id, displayName: id, type, required: false, defaultMatch: false, display: true, removed: true }));
	} catch {
		// Without a working credential the known fields are still worth showing.
		return [];
	}
}

async function columns(ctx: ILoadOptionsFunctions, specs: FieldSpecs, path: string): Promise<ResourceMapperFields> {
	const known = knownColumns(specs);
	return { fields: [...known, ...(await fieldsOfRecords(ctx, path, new Set(known.map((field) => field.id))))] };
}

export async function getContactFields(this: ILoadOptionsFunctions) {
	return await columns(this, contactFields, contacts);
}

export async function getProductFields(this: ILoadOptionsFunctions) {
	return await columns(this, productFields, products);
}

export async function getEmployeeFields(this: ILoadOptionsFunctions) {
	return await columns(this, employeeFields, employees);
}
