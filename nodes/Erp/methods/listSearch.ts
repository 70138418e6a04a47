import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { ErpClient } from '../../shared/transport/client';
import type { ErpRequest } from '../../shared/transport/types';

type Label = (record: IDataObject) => string;

const joined = (...parts: unknown[]) =>
	parts.filter((part) => part !== undefined && part !== null && String(part).trim() !== '').join(' ');

/**
 * One searchable page of records for a resource locator's "From List" mode, through the same transport. The page
 * size is the ERP's own default (none is asked for, so no ERP can refuse it).
 */
async function search(
	ctx: ILoadOptionsFunctions,
	list: Pick<ErpRequest, 'path' | 'doing'>,
	label: Label,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const client = await ErpClient.create(ctx, { maxRetries: 2, timeoutMs: 15_000 });
	const page = Number(paginationToken ?? 1);
	const response = await client.request({ method: 'GET', ...list, qs: { page, ...(filter ? { search: filter } : {}) } });
	const records = Array.isArray(response.data) ? (response.data as IDataObject[]) : [];
	const results: INodeListSearchItems[] = records.map((record) => ({
		name: `${label(record)} (#${String(record.id)})`,
		value: String(record.id),
	}));
	const perPage = response.meta?.perPage ?? records.length;
	const total = response.meta?.total;
	const more = records.length > 0 && (total === undefined ? records.length >= perPage : page * perPage < total);
	return { results, paginationToken: more ? String(page + 1) : undefined };
}

export async function searchContacts(this: ILoadOptionsFunctions, filter?: string, token?: string) {
	return await search(this, { path: '/contacts', doing: { action: 'list contacts', noun: 'contact' } }, (r) => joined(r.first_name, r.last_name, r.company ? `· ${String(r.company)}` : ''), filter, token);
}

export async function searchInvoices(this: ILoadOptionsFunctions, filter?: string, token?: string) {
	return await search(this, { path: '/invoices', doing: { action: 'list invoices', noun: 'invoice' } }, (r) => joined(r.number, '·', r.total, r.currency, '·', r.status), filter, token);
}

export async function searchProducts(this: ILoadOptionsFunctions, filter?: string, token?: string) {
	return await search(this, { path: '/products', doing: { action: 'list products', noun: 'product' } }, (r) => joined(r.sku, '·', r.name), filter, token);
}

export async function searchEmployees(this: ILoadOptionsFunctions, filter?: string, token?: string) {
	return await search(this, { path: '/employees', doing: { action: 'list employees', noun: 'employee' } }, (r) => joined(r.first_name, r.last_name, r.job_title ? `· ${String(r.job_title)}` : ''), filter, token);
}
