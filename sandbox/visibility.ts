import type { Store } from './store';
import type { Table } from './table';
import type { StockRow } from './types';

/** The resources whose records can lag behind their writes (the document's four). */
export type LaggingResource = 'contacts' | 'invoices' | 'products' | 'employees';

const LAGGING: readonly string[] = ['contacts', 'invoices', 'products', 'employees'];

/** A record a write touched: `id` absent means "the records this write creates". */
export interface WriteTarget {
	resource: LaggingResource;
	id?: number;
}

interface Shown {
	id: number;
}

interface Pending {
	/** What readers see until `visibleAt`; undefined: the record did not exist for them. */
	record: Shown | undefined;
	/** Products only: their stock rows as readers see them. */
	stock?: StockRow[];
	visibleAt: number;
}

/**
 * The "not yet visible" fault: a record a write created or changed reads (GET one, lists) as it was before the
 * write until `delayMs` after it, as behind a lagging read replica. Writes always see the current state.
 */
export class Visibility {
	private pending = new Map<string, Pending>();

	clear(): void {
		this.pending.clear();
	}

	/** How many records read as older than they are at `now`. */
	lagging(now = Date.now()): number {
		this.expire(now);
		return this.pending.size;
	}

	/**
	 * Runs `write`; with a delay, every target it created or changed keeps reading as before for `delayMs`
	 * (a record already lagging keeps its older state and lags until `delayMs` after this write).
	 */
	track<T>(store: Store, targets: WriteTarget[], delayMs: number, write: () => T): T {
		if (delayMs <= 0 || targets.length === 0) return write();
		const before = targets.map((target) => ({ target, lastId: lastId(table(store, target.resource)), ...snapshot(store, target) }));
		const result = write();
		const visibleAt = Date.now() + delayMs;
		for (const { target, lastId: previousLast, record, stock } of before) {
			const rows = table(store, target.resource);
			if (target.id === undefined) {
				for (const row of rows.all()) if (row.id > previousLast) this.lag(target.resource, row.id, { record: undefined, visibleAt });
				continue;
			}
			const now = snapshot(store, target);
			if (JSON.stringify(now) !== JSON.stringify({ record, stock })) this.lag(target.resource, target.id, { record, stock, visibleAt });
		}
		return result;
	}

	/** Runs `read` while the store shows what readers may see at `now`; the store is back as it was after. */
	showing<T>(store: Store, now: number, read: () => T): T {
		if (this.lagging(now) === 0) return read();
		const restore: Array<() => void> = [];
		try {
			for (const [key, pending] of this.pending) {
				const [resource, id] = key.split('/') as [LaggingResource, string];
				restore.push(swap(store, resource, Number(id), pending));
			}
			return read();
		} finally {
			for (const undo of restore.reverse()) undo();
		}
	}

	private lag(resource: LaggingResource, id: number, change: Pending): void {
		const key = `${resource}/${id}`;
		const older = this.pending.get(key);
		this.pending.set(key, older ? { ...older, visibleAt: change.visibleAt } : change);
	}

	private expire(now: number): void {
		for (const [key, pending] of this.pending) if (pending.visibleAt <= now) this.pending.delete(key);
	}
}

/** The write targets an /api/v1 write names: `/contacts` creates contacts, `/invoices/5/mark-paid` changes invoice 5. */
export function writeTargets(path: string): WriteTarget[] {
	const [resource, id] = path.split('/').filter(Boolean);
	if (!LAGGING.includes(resource)) return [];
	const target: WriteTarget = { resource: resource as LaggingResource };
	if (id === undefined) return [target];
	return /^\d+$/.test(id) ? [{ ...target, id: Number(id) }] : [];
}

const table = (store: Store, resource: LaggingResource): Table<Shown> => store[resource] as unknown as Table<Shown>;

const lastId = (rows: Table<Shown>): number => rows.all().at(-1)?.id ?? 0;

function snapshot(store: Store, { resource, id }: WriteTarget): { record: Shown | undefined; stock?: StockRow[] } {
	if (id === undefined) return { record: undefined };
	const record = table(store, resource).get(id);
	const copy = record === undefined ? undefined : structuredClone(record);
	if (resource !== 'products') return { record: copy };
	const stock = store.stock.get(id);
	return { record: copy, stock: stock === undefined ? undefined : structuredClone(stock) };
}

/** Puts the lagging state in the store; returns how to put the current one back. */
function swap(store: Store, resource: LaggingResource, id: number, pending: Pending): () => void {
	const rows = table(store, resource);
	const current = rows.get(id);
	const currentStock = resource === 'products' ? store.stock.get(id) : undefined;
	if (current) rows.remove(id);
	if (pending.record) rows.insert(pending.record);
	if (pending.stock) store.stock.set(id, pending.stock);
	return () => {
		if (pending.record) rows.remove(id);
		if (current) rows.insert(current);
		if (currentStock) store.stock.set(id, currentStock);
	};
}
