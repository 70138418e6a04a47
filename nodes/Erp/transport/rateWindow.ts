/** X-RateLimit-Remaining (or the IETF draft's RateLimit-Remaining) as a count; undefined when not sent. */
export function remainingFrom(headers: Record<string, string | string[] | undefined>): number | undefined {
	const raw = headers['x-ratelimit-remaining'] ?? headers['ratelimit-remaining'];
	const text = (Array.isArray(raw) ? raw[0] : raw)?.trim();
	return text && /^\d+$/.test(text) ? Number(text) : undefined;
}

/**
 * Holds back new items once the service says its rate-limit window is used up, before their parameters are
 * read. Without it every item in flight starts its next one, spends CPU on it and is refused; the 429 that
 * names the wait then comes late, and the whole wait starts late. With it, one item goes ahead and learns the
 * wait (Retry-After) while the others wait; during that wait they get ready, so that the next window's
 * requests leave together the moment it opens.
 *
 * An item may start while the window is unknown (no header, or a 429 wait announced since), while the window
 * has more requests left than items are running, or when no item runs at all (it goes ahead alone).
 */
export class RateWindow {
	private remaining?: number;

	private running = 0;

	private waiters: Array<() => void> = [];

	/** Resolves when an item may start; call the answer once the item is done. */
	async admit(): Promise<() => void> {
		while (!this.hasRoom()) await new Promise<void>((resolve) => this.waiters.push(resolve));
		this.running++;
		let done = false;
		return () => {
			if (done) return;
			done = true;
			this.running--;
			this.wake();
		};
	}

	/** What an answer of the current window says is left. */
	observe(remaining: number | undefined): void {
		if (remaining === undefined) return;
		this.remaining = remaining;
		this.wake();
	}

	/** A 429 named the wait: after it, a new window starts, of unknown size until its first answers. */
	expectNewWindow(): void {
		this.remaining = undefined;
		this.wake();
	}

	private hasRoom(): boolean {
		return this.remaining === undefined || this.running === 0 || this.remaining > this.running;
	}

	private wake(): void {
		const waiters = this.waiters;
		this.waiters = [];
		for (const resolve of waiters) resolve();
	}
}
