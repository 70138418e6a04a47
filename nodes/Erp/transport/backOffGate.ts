import type { Clock } from './clock';

/**
 * One gate shared by all requests of a node run: when the service answers 429, every request waits
 * until the same moment before it is sent, so parallel requests do not keep hitting the limit.
 */
export class BackOffGate {
	private resumeAt = 0;

	constructor(private readonly clock: Clock) {}

	/** Whether a wait is on: answers arriving now belong to the window that was refused. */
	holding(): boolean {
		return this.clock.now() < this.resumeAt;
	}

	holdUntil(timestampMs: number): void {
		this.resumeAt = Math.max(this.resumeAt, timestampMs);
	}

	/** Resolves once no wait is on; answers how long it waited (ms). */
	async pass(): Promise<number> {
		let waited = 0;
		for (let wait = this.resumeAt - this.clock.now(); wait > 0; wait = this.resumeAt - this.clock.now()) {
			await this.clock.sleep(wait);
			waited += wait;
		}
		return waited;
	}
}
