/**
 * Records of one resource: an array kept in ascending id order (so an unfiltered page is one slice) and a
 * Map by id. Views (sorted by another field, or filtered) are cached until the next change (`version`).
 */
export interface Row {
	id: number;
}

// A few lists paged through at once (e.g. one sub-workflow per month), without keeping every query ever asked.
const MAX_VIEWS = 16;

export class Table<T extends Row> {
	private rows: T[] = [];

	private byId = new Map<number, T>();

	private lastId = 0;

	private version = 0;

	private views = new Map<string, { version: number; rows: readonly T[] }>();

	get size(): number {
		return this.rows.length;
	}

	/** Ids are never reused, not even after a delete. */
	nextId(): number {
		return ++this.lastId;
	}

	insert(row: T): void {
		const rows = this.rows;
		if (rows.length === 0 || rows[rows.length - 1].id < row.id) rows.push(row);
		else rows.splice(this.indexOf(row.id), 0, row);
		this.byId.set(row.id, row);
		this.lastId = Math.max(this.lastId, row.id);
		this.touch();
	}

	get(id: number): T | undefined {
		return this.byId.get(id);
	}

	remove(id: number): boolean {
		if (!this.byId.delete(id)) return false;
		this.rows.splice(this.indexOf(id), 1);
		this.touch();
		return true;
	}

	/** Call after changing a stored record in place, so cached sorted views are rebuilt. */
	touch(): void {
		this.version++;
	}

	/** All records in ascending id order. Read-only: never mutate the array. */
	all(): readonly T[] {
		return this.rows;
	}

	/**
	 * `build(all rows)`, cached under `key` until the table changes: paging through a sorted or filtered list then
	 * costs one build, not one per page. Only the latest MAX_VIEWS keys are kept.
	 */
	view(key: string, build: (rows: readonly T[]) => readonly T[]): readonly T[] {
		const cached = this.views.get(key);
		if (cached && cached.version === this.version) return cached.rows;
		const rows = build(this.rows);
		this.views.delete(key);
		this.views.set(key, { version: this.version, rows });
		if (this.views.size > MAX_VIEWS) this.views.delete(this.views.keys().next().value as string);
		return rows;
	}

	clear(): void {
		this.rows = [];
		this.byId.clear();
		this.views.clear();
		this.lastId = 0;
		this.touch();
	}

	/** Binary search: the index of `id`, or where it would be inserted. */
	private indexOf(id: number): number {
		let low = 0;
		let high = this.rows.length;
		while (low < high) {
			const mid = (low + high) >>> 1;
			if (this.rows[mid].id < id) low = mid + 1;
			else high = mid;
		}
		return low;
	}
}
