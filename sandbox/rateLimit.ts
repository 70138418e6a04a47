import type { AuthKind } from './auth';

export interface RateLimitConfig {
	limit: number;
	windowMs: number;
}

export interface RateDecision {
	allowed: boolean;
	headers: Record<string, string>;
}

/**
 * A fixed window per token (the full token, the read-only token, and one shared window for requests without
 * a valid token). The window opens with its first request. A refused request does not count.
 */
export class RateLimiter {
	private windows = new Map<AuthKind | 'anonymous', { start: number; count: number }>();

	constructor(private config: RateLimitConfig | null) {}

	get current(): RateLimitConfig | null {
		return this.config;
	}

	configure(config: RateLimitConfig | null): void {
		this.config = config;
		this.windows.clear();
	}

	hit(auth: AuthKind, now = Date.now()): RateDecision {
		const config = this.config;
		if (!config) return { allowed: true, headers: {} };
		const key = auth === 'full' || auth === 'readonly' ? auth : 'anonymous';
		let window = this.windows.get(key);
		if (!window || now >= window.start + config.windowMs) {
			window = { start: now, count: 0 };
			this.windows.set(key, window);
		}
		const resetAt = window.start + config.windowMs;
		const allowed = window.count < config.limit;
		if (allowed) window.count++;
		const headers: Record<string, string> = {
			'X-RateLimit-Limit': String(config.limit),
			'X-RateLimit-Remaining': String(config.limit - window.count),
			'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
		};
		if (!allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil((resetAt - now) / 1000)));
		return { allowed, headers };
	}
}
