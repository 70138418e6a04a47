/**
 * The part of a run's figures a document's generator reads: `read` is given the figures behind a proxy that notes
 * every property it looks at, and the answer keeps those alone (an object whose keys it listed keeps every key; an
 * array keeps every element, each cut the same way). The generator, given the answer, reads the same values and so
 * writes the same document.
 */
interface Seen {
	/** The keys were listed (Object.keys, entries, a spread): keep them all. */
	all: boolean;
	keys: Map<string, Seen>;
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
const seen = (): Seen => ({ all: false, keys: new Map() });

function child(parent: Seen, key: string | symbol): Seen {
	if (typeof key === 'symbol') return seen();
	const known = parent.keys.get(key) ?? seen();
	parent.keys.set(key, known);
	return known;
}

function watched<T extends object>(value: T, notes: Seen): T {
	return new Proxy(value, {
		get(target, key, receiver) {
			const found: unknown = Reflect.get(target, key, receiver);
			return isObject(found) && Object.prototype.hasOwnProperty.call(target, key) ? watched(found, child(notes, key)) : (child(notes, key), found);
		},
		has(target, key) {
			child(notes, key);
			return Reflect.has(target, key);
		},
		getOwnPropertyDescriptor(target, key) {
			child(notes, key);
			return Reflect.getOwnPropertyDescriptor(target, key);
		},
		ownKeys(target) {
			notes.all = true;
			return Reflect.ownKeys(target);
		},
	});
}

function kept(value: unknown, notes: Seen): unknown {
	if (!isObject(value)) return value;
	if (Array.isArray(value)) return value.map((item: unknown, index) => kept(item, notes.keys.get(String(index)) ?? seen()));
	const entries = Object.entries(value).filter(([key]) => notes.all || notes.keys.has(key));
	return Object.fromEntries(entries.map(([key, item]) => [key, kept(item, notes.keys.get(key) ?? seen())]));
}

export function figuresRead<R extends object>(figures: R, read: (figures: R) => unknown): R {
	const notes = seen();
	read(watched(figures, notes));
	return kept(figures, notes) as R;
}
