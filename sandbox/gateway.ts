import type { AuthKind } from './auth';
import { RateLimiter, type RateHeaderStyle } from './rateLimit';

const QUOTA = { limit: 100_000, windowMs: 3_600_000 };

/**
 * The gateway-headers variant: an API gateway in front of the ERP that counts every answered request per
 * token in an hour-long window and reports that quota on every answer (faults included). It only reports:
 * refusing is left to the ERP's own rate limit, whose 429 still names its own wait in Retry-After.
 */
export class Gateway {
	private readonly counter = new RateLimiter(QUOTA);

	quota(auth: AuthKind, style: RateHeaderStyle): Record<string, string> {
		const { headers } = this.counter.hit(auth, Date.now(), style);
		return Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'Retry-After'));
	}

	reset(): void {
		this.counter.configure(QUOTA);
	}
}
