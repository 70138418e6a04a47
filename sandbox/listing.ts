import { badRequest } from './errors';
import { integerParam, stringParam } from './query';
import type { Row, Table } from './table';

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

export interface PageMeta {
	page: number;
	per_page: number;
	total: number;
}

export interface ListResult<T> {
	data: T[];
	meta: PageMeta;
}

export type Filter<T> = (row: T) => boolean;

export type SortKey = string | number | null;

/** Sortable fields and the key each sorts by; `id` needs none (the table is already in id order). */
export type Sorts<T> = Record<string, ((row: T) => SortKey) | null>;

export function readPage(query: URLSearchParams): { page: number; perPage: number } {
	const page = integerParam(query, 'page') ?? 1;
	const perPage = Math.min(integerParam(query, 'per_page') ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
	return { page, perPage };
}

/** One page of `rows`, read back to front when `reversed` (no copy of the whole list either way). */
export function pageOf<T>(rows: readonly T[], query: URLSearchParams, reversed = false): ListResult<T> {
	const { page, perPage } = readPage(query);
	const total = rows.length;
	const start = Math.min((page - 1) * perPage, total);
	const end = Math.min(start + perPage, total);
	let data: T[];
	if (!reversed) data = rows.slice(start, end);
	else {
		data = [];
		for (let i = start; i < end; i++) data.push(rows[total - 1 - i]);
	}
	return { data, meta: { page, per_page: perPage, total } };
}

/**
 * A page of a table, filtered and sorted. Unfiltered and in id order (the usual case) it costs one slice;
 * an unfiltered sort by another field uses the table's cached sorted view; only a filter scans the table.
 * A descending sort is the ascending order read backwards.
 */
export function listTable<T extends Row>(
	table: Table<T>,
	query: URLSearchParams,
	filters: Array<Filter<T>>,
	sorts: Sorts<T>,
): ListResult<T> {
	const sortParam = stringParam(query, 'sort') ?? 'id';
	const descending = sortParam.startsWith('-');
	const field = descending ? sortParam.slice(1) : sortParam;
	if (!(field in sorts)) {
		throw badRequest(`Query parameter sort must be one of ${Object.keys(sorts).join(', ')} (prefix - for descending)`);
	}
	const key = sorts[field];
	let rows: readonly T[];
	if (filters.length === 0) rows = key ? table.sortedBy(field, (all) => sortByKey(all, key)) : table.all();
	else {
		const matching = table.all().filter((row) => filters.every((test) => test(row)));
		rows = key ? sortByKey(matching, key) : matching;
	}
	return pageOf(rows, query, descending);
}

/** Ascending by `key` (nulls last), ties by id: a total, stable order. Each key is computed once. */
export function sortByKey<T extends Row>(rows: readonly T[], key: (row: T) => SortKey): T[] {
	const keyed = rows.map((row) => ({ key: key(row), row }));
	keyed.sort((a, b) => {
		if (a.key !== b.key) {
			if (a.key === null) return 1;
			if (b.key === null) return -1;
			return a.key < b.key ? -1 : 1;
		}
		return a.row.id - b.row.id;
	});
	return keyed.map((entry) => entry.row);
}

export const containsText = (needle: string, ...values: Array<string | null>): boolean =>
	values.some((value) => value !== null && value.toLowerCase().includes(needle));
