import type { AuthKind } from './auth';
import type { FaultKind } from './faults';

export interface LoggedFault {
	kind: FaultKind;
	source: 'queue' | 'random';
	afterCommit: boolean;
	/** With afterCommit: the status the API itself produced before the fault replaced the answer. */
	appStatus?: number;
}

export interface RequestLogEntry {
	seq: number;
	at: string;
	method: string;
	/** Path after /api/v1, e.g. /contacts/5. */
	path: string;
	query: Record<string, string>;
	/** The parsed JSON body, the raw text when it is not JSON, or null when empty. */
	body: unknown;
	/** null when the connection was dropped without an answer. */
	status: number | null;
	fault?: LoggedFault;
	auth: AuthKind;
}

/** The last `capacity` /api/v1 requests. */
export class RequestLog {
	private entries: RequestLogEntry[] = [];

	private lastSeq = 0;

	constructor(private readonly capacity: number) {}

	add(entry: Omit<RequestLogEntry, 'seq'>): void {
		this.entries.push({ seq: ++this.lastSeq, ...entry });
		if (this.entries.length > this.capacity + 1000) this.entries.splice(0, this.entries.length - this.capacity);
	}

	since(seq = 0): RequestLogEntry[] {
		if (seq <= 0) return [...this.entries];
		// Sequence numbers are consecutive, so the first wanted entry is found by arithmetic.
		const first = this.entries.length === 0 ? 0 : Math.max(0, seq + 1 - this.entries[0].seq);
		return this.entries.slice(first);
	}

	clear(): void {
		this.entries = [];
		this.lastSeq = 0;
	}
}
