import type { AuthKind } from './auth';
import type { VariantSettings } from './variants';

export interface RateLimitConfig {
	limit: number;
	windowMs: number;
}

/** How answers report the quota: the header names and the form of a 429's wait. */
export type RateHeaderStyle = Pick<VariantSettings, 'rateLimitHeaders' | 'retryAfter'>;

const X_STYLE: RateHeaderStyle = { rateLimitHeaders: 'x-ratelimit', retryAfter: 'seconds' };

export interface RateDecision {
	allowed: boolean;
	headers: Record<string, string>;
	/** Whole seconds until the window resets (at least 1). */
	waitSeconds: number;
}

const secondsUntil = (resetAt: number, now: number): number => Math.max(1, Math.ceil((resetAt - now) / 1000));

/**
 * When the window resets: X-RateLimit-Reset in epoch seconds, or the IETF draft's RateLimit-Reset in seconds from
 * now, or nothing (style 'none').
 */
export function resetHeader(resetAt: number, now: number, style: RateHeaderStyle): Record<string, string> {
	if (style.rateLimitHeaders === 'none') return {};
	return style.rateLimitHeaders === 'ietf'
		? { 'RateLimit-Reset': String(secondsUntil(resetAt, now)) }
		: { 'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)) };
}

/**
 * The quota headers: X-RateLimit-Limit/-Remaining/-Reset (epoch seconds) by default, or the IETF draft's
 * RateLimit-Limit/-Remaining/-Reset (seconds from now), or none at all. On a refusal, Retry-After in seconds, as
 * an HTTP date, or not at all.
 */
function quotaHeaders(
	quota: { limit: number; remaining: number; resetAt: number; refused: boolean },
	now: number,
	style: RateHeaderStyle,
): Record<string, string> {
	const wait = secondsUntil(quota.resetAt, now);
	const counts: Record<string, string> = {
		'x-ratelimit': { 'X-RateLimit-Limit': String(quota.limit), 'X-RateLimit-Remaining': String(quota.remaining) },
		ietf: { 'RateLimit-Limit': String(quota.limit), 'RateLimit-Remaining': String(quota.remaining) },
		none: {},
	}[style.rateLimitHeaders];
	const headers: Record<string, string> = { ...counts, ...resetHeader(quota.resetAt, now, style) };
	return quota.refused ? { ...headers, ...retryAfterHeader(wait, now, style) } : headers;
}

/** `Retry-After` for a wait of whole seconds, in the style's form ({} when the style sends none). */
export function retryAfterHeader(wait: number, now: number, style: RateHeaderStyle): Record<string, string> {
	if (style.retryAfter === 'none') return {};
	if (style.retryAfter === 'seconds') return { 'Retry-After': String(wait) };
	// An HTTP date has whole seconds: one more, so that the date is never before the end of the wait.
	return { 'Retry-After': new Date((Math.floor(now / 1000) + wait + 1) * 1000).toUTCString() };
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

	hit(auth: AuthKind, now = Date.now(), style: RateHeaderStyle = X_STYLE): RateDecision {
		const config = this.config;
		if (!config) return { allowed: true, headers: {}, waitSeconds: 1 };
		const key = auth === 'full' || auth === 'readonly' ? auth : 'anonymous';
		let window = this.windows.get(key);
		if (!window || now >= window.start + config.windowMs) {
			window = { start: now, count: 0 };
			this.windows.set(key, window);
		}
		const allowed = window.count < config.limit;
		if (allowed) window.count++;
		const quota = { limit: config.limit, remaining: config.limit - window.count, resetAt: window.start + config.windowMs, refused: !allowed };
		return { allowed, headers: quotaHeaders(quota, now, style), waitSeconds: secondsUntil(quota.resetAt, now) };
	}
}
