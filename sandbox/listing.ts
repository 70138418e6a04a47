import { badRequest, validationFailed } from './errors';
import { integerParam, stringParam } from './query';
import type { Row, Table } from './table';
import type { VariantSettings } from './variants';

export interface PageMeta {
	page: number;
	per_page: number;
	/** Absent with the no-total variant. */
	total?: number;
}

export interface ListResult<T> {
	data: T[];
	meta: PageMeta;
}

/** What a list answer depends on: the query and the variant in force. */
export interface ListRequest {
	query: URLSearchParams;
	variant: Readonly<VariantSettings>;
}

export type Filter<T> = (row: T) => boolean;

export type SortKey = string | number | null;

/** Sortable fields and the key each sorts by; `id` needs none (the table is already in id order). */
export type Sorts<T> = Record<string, ((row: T) => SortKey) | null>;

/** A list's sorts: by id, created_at and updated_at, as every list sorts, then by the list's own fields. */
export const listSorts = <T extends Row & { created_at: string; updated_at: string }>(own: Sorts<T>): Sorts<T> => ({
	id: null,
	created_at: (row) => row.created_at,
	updated_at: (row) => row.updated_at,
	...own,
});

/** The page asked for and the page size really used (by default capped to 100, 25 when none is asked). */
export function readPage({ query, variant }: ListRequest): { page: number; perPage: number } {
	const page = integerParam(query, 'page') ?? 1;
	if (variant.fixedPerPage !== null) return { page, perPage: variant.fixedPerPage };
	const max = variant.maxPerPage;
	const asked = integerParam(query, 'per_page');
	if (asked === undefined) return { page, perPage: Math.min(variant.defaultPerPage, max) };
	if (asked > max && variant.perPageAboveMax === 'refuse-422') throw validationFailed({ per_page: [`must be at most ${max}`] });
	if (asked > max && variant.perPageAboveMax === 'refuse-400') throw badRequest(`per_page must be between 1 and ${max}`);
	return { page, perPage: Math.min(asked, max) };
}

/** One page of `rows`, read back to front when `reversed` (no copy of the whole list either way). */
export function pageOf<T>(rows: readonly T[], request: ListRequest, reversed = false): ListResult<T> {
	const { page, perPage } = readPage(request);
	const served = request.variant.pageParam === 'ignored' ? 1 : page;
	const total = rows.length;
	const start = Math.min((served - 1) * perPage, total);
	const end = Math.min(start + perPage, total);
	let data: T[];
	if (!reversed) data = rows.slice(start, end);
	else {
		data = [];
		for (let i = start; i < end; i++) data.push(rows[total - 1 - i]);
	}
	return { data, meta: { page, per_page: perPage, ...(request.variant.metaTotal ? { total } : {}) } };
}

/**
 * A page of a table, filtered (unless the variant ignores filters) and sorted. Unfiltered and in id order (the usual case) it costs one slice;
 * a sort by another field or a filter uses the table's cached view for that query, built on its first page.
 * A descending sort is the ascending order read backwards.
 */
export function listTable<T extends Row>(
	table: Table<T>,
	request: ListRequest,
	filtersOf: (query: URLSearchParams) => Array<Filter<T>>,
	sorts: Sorts<T>,
): ListResult<T> {
	const { query } = request;
	const sortParam = stringParam(query, 'sort') ?? (request.variant.listOrder === 'newest-first' ? '-id' : 'id');
	const descending = sortParam.startsWith('-');
	const field = descending ? sortParam.slice(1) : sortParam;
	if (!(field in sorts)) {
		throw badRequest(`Query parameter sort must be one of ${Object.keys(sorts).join(', ')} (prefix - for descending)`);
	}
	const key = sorts[field];
	// An ERP that ignores filters does not read (or check) their parameters either.
	const filters = request.variant.listFilters === 'ignored' ? [] : filtersOf(query);
	let rows: readonly T[];
	if (filters.length === 0) rows = key ? table.view(`sort:${field}`, (all) => sortByKey(all, key)) : table.all();
	else {
		rows = table.view(`filter:${field}:${filterKey(query)}`, (all) => {
			const matching = all.filter((row) => filters.every((test) => test(row)));
			return key ? sortByKey(matching, key) : matching;
		});
	}
	return pageOf(rows, request, descending);
}

/** The query's parameters other than paging and sort, in a fixed order: what a filtered view depends on. */
function filterKey(query: URLSearchParams): string {
	const params = [...query.entries()].filter(([name]) => !['page', 'per_page', 'sort'].includes(name));
	return new URLSearchParams(params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString();
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
