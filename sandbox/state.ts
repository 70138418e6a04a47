import type { Tokens } from './auth';
import type { ExtensionName } from './extensions/names';
import { Faults } from './faults';
import { Gateway } from './gateway';
import { RateLimiter, type RateLimitConfig } from './rateLimit';
import { RequestLog } from './requestLog';
import { Store } from './store';
import { ActiveVariant, type VariantChoice } from './variants';
import { Visibility, type WriteTarget } from './visibility';
import { Webhooks } from './webhooks';

export interface SandboxConfig extends Tokens {
	overdueSweepMs: number;
	webhookRetryDelaysMs: number[];
	webhookTimeoutMs: number;
	/** The rate limit at start, restored by a reset or by clearing the faults. */
	rateLimit: RateLimitConfig | null;
	/** The variants at start, restored by a reset. */
	variant: VariantChoice;
	/** Endpoints beyond the API document that this sandbox serves (fixed for its life). */
	extensions: readonly ExtensionName[];
}

/** Everything a request can read or change: the data, and the sandbox's own knobs and logs. */
export class SandboxState {
	readonly store = new Store();

	readonly faults = new Faults();

	readonly limiter: RateLimiter;

	readonly gateway = new Gateway();

	readonly log = new RequestLog(50_000);

	readonly webhooks: Webhooks;

	readonly variant: ActiveVariant;

	readonly visibility = new Visibility();

	constructor(readonly config: SandboxConfig) {
		this.limiter = new RateLimiter(config.rateLimit);
		this.variant = new ActiveVariant(config.variant);
		this.webhooks = new Webhooks({
			retryDelaysMs: config.webhookRetryDelaysMs,
			timeoutMs: config.webhookTimeoutMs,
			timestampForm: () => this.variant.settings.webhookTimestamp,
			deliveryIdHeader: () => this.variant.settings.deliveryIdHeader,
		});
	}

	/** Runs a write; under the not-yet-visible fault, what it changes reads as before for a while. */
	trackWrite<T>(targets: WriteTarget[], write: () => T): T {
		return this.visibility.track(this.store, targets, this.faults.settings.visibleAfterMs, write);
	}

	/** Runs a read against what readers may see now (all of it but for the not-yet-visible fault). */
	visibleRead<T>(read: () => T): T {
		return this.visibility.showing(this.store, Date.now(), read);
	}

	clearFaults(): void {
		this.faults.clear();
		this.visibility.clear();
		this.limiter.configure(this.config.rateLimit);
	}

	/** Empty store, faults cleared, logs and webhooks gone, the variants of the start: as after start without seeding. */
	reset(): void {
		this.store.clear();
		this.clearFaults();
		this.log.clear();
		this.webhooks.reset();
		this.variant.restore();
		this.gateway.reset();
	}
}
