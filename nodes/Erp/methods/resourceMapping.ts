import type { FieldType, IDataObject, ILoadOptionsFunctions, ResourceMapperField, ResourceMapperFields } from 'n8n-workflow';

import { contactFields } from '../actions/contact/fields';
import { employeeFields } from '../actions/employee/fields';
import { productFields } from '../actions/product/fields';
import { emptyJsonDefault, knownColumns } from '../actions/shared/columns';
import type { FieldSpecs } from '../actions/shared/fields';
import { ASSIGNED_FIELDS } from '../actions/shared/update';
import { ErpClient } from '../../shared/transport/client';
import type { ErpRequest } from '../../shared/transport/types';

function typeOf(value: unknown): FieldType {
	if (typeof value === 'number') return 'number';
	if (typeof value === 'boolean') return 'boolean';
	if (Array.isArray(value)) return 'array';
	if (typeof value === 'object' && value !== null) return 'object';
	return 'string';
}

/** Fields the ERP's own records have beyond the known ones (read from its first page), offered under "Add field". */
async function fieldsOfRecords(ctx: ILoadOptionsFunctions, list: Pick<ErpRequest, 'path' | 'doing'>, known: Set<string>): Promise<ResourceMapperField[]> {
	try {
		const client = await ErpClient.create(ctx, { maxRetries: 1, timeoutMs: 15_000 });
		const { data } = await client.request({ method: 'GET', ...list });
		const found = new Map<string, FieldType>();
		for (const record of Array.isArray(data) ? (data as IDataObject[]) : []) {
			for (const [name, value] of Object.entries(record)) {
				if (known.has(name) || ASSIGNED_FIELDS.includes(name) || found.has(name) || value === null) continue;
				found.set(name, typeOf(value));
			}
		}
		return [...found].map(([id, type]) => ({ id, displayName: id, type, required: false, defaultMatch: false, display: true, removed: true, ...emptyJsonDefault(type) }));
	} catch {
		// Without a working credential the known fields are still worth showing.
		return [];
	}
}

async function columns(ctx: ILoadOptionsFunctions, specs: FieldSpecs, list: Pick<ErpRequest, 'path' | 'doing'>): Promise<ResourceMapperFields> {
	const known = knownColumns(specs);
	return { fields: [...known, ...(await fieldsOfRecords(ctx, list, new Set(known.map((field) => field.id))))] };
}

export async function getContactFields(this: ILoadOptionsFunctions) {
	return await columns(this, contactFields, { path: '/contacts', doing: { action: 'list contacts', noun: 'contact' } });
}

export async function getProductFields(this: ILoadOptionsFunctions) {
	return await columns(this, productFields, { path: '/products', doing: { action: 'list products', noun: 'product' } });
}

export async function getEmployeeFields(this: ILoadOptionsFunctions) {
	return await columns(this, employeeFields, { path: '/employees', doing: { action: 'list employees', noun: 'employee' } });
}
