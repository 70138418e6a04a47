/**
 * At most `limit` requests on the wire at once, over everything one node run sends: items running side by
 * side and the pages one Return All reads ahead share the same slots, so Concurrency is never multiplied.
 * A request holds its slot while it waits at the 429 gate and while it is sent, not while it sleeps before a
 * retry of its own.
 */
export class InFlightLimit {
	private active = 0;

	private readonly queue: Array<() => void> = [];

	constructor(private readonly limit: number) {}

	async run<T>(work: () => Promise<T>): Promise<T> {
		if (this.active >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
		else this.active++;
		try {
			return await work();
		} finally {
			const next = this.queue.shift();
			// The slot passes straight to the next waiter; only when nobody waits is it given back.
			if (next) next();
			else this.active--;
		}
	}
}
