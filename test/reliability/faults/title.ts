import type { RecordFaults } from './recordFaults';
import type { FaultScenario } from './scenarios';
import { SUBJECTS } from './subjects';

export const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;
const seconds = (ms: number) => `${ms / 1000} s`;
const TIMES = ['never', 'once', 'twice', 'three times'];
export const times = (n: number) => TIMES[n] ?? `${n} times`;

function recordFaultWords({ method, fault, groups }: RecordFaults, timeout: number | undefined): string {
	const against = timeout === undefined ? '' : ` against a ${seconds(timeout)} timeout`;
	const what =
		fault.kind === 'rateLimit'
			? `refused with 429${fault.retryAfter === null ? ' without Retry-After' : ''}`
			: fault.kind === 'latency'
				? `answered ${seconds(fault.delayMs ?? 1000)} late${against}`
				: fault.kind === 'drop'
					? 'dropped'
					: `answered ${fault.status ?? (fault.kind === 'html' ? 502 : 500)}${fault.kind === 'html' ? ' (HTML page)' : ''}`;
	const contacts = groups.reduce((n, g) => n + g.count, 0);
	return `${method} requests for ${contacts} contacts ${what} (${groups.map((g) => `${g.count} ${times(g.times)}`).join(', ')})`;
}

/** What goes wrong in the scenario and what the node does meanwhile, in words made from its settings. */
export function titleOf(scenario: FaultScenario): string {
	const { faults: f, options, kind } = scenario;
	const committed = f.faultTiming === 'after' && kind !== 'read' ? ' after the ERP committed them' : '';
	const words: string[] = [];
	if (f.rateLimit) words.push(`a rate limit of ${f.rateLimit.limit} requests per ${seconds(f.rateLimit.windowMs)} with X-RateLimit headers`);
	if (f.dropRate) words.push(`${percent(f.dropRate)} of connections dropped${committed}`);
	if (f.nonJsonRate) words.push(`${percent(f.nonJsonRate)} of requests answered by a proxy's HTML 502 page${committed}`);
	if (f.errorRate) {
		const status = f.errorStatus ?? 500;
		words.push(status === 429 ? `${percent(f.errorRate)} of requests refused with 429 and Retry-After` : `${percent(f.errorRate)} of requests answered ${status}${committed}`);
	}
	if (f.latencyMs) words.push(`every answer ${seconds(f.latencyMs)} late${options.timeout === undefined ? '' : ` against a ${seconds(options.timeout)} timeout`}`);
	if (scenario.recordFaults) words.push(recordFaultWords(scenario.recordFaults, options.timeout));
	const trouble = words.join('; ');
	const described = scenario.label ? `${scenario.label}: ${trouble}` : trouble.charAt(0).toUpperCase() + trouble.slice(1);
	const retries = options.maxRetries === undefined ? '' : `, Max Retries ${options.maxRetries}`;
	const subject = SUBJECTS[scenario.subject ?? 'contact'];
	const keyField = scenario.subject === 'order' && kind === 'create' ? (scenario.keyed ? ` with Key Field ${subject.key}` : ' without a Key Field') : '';
	return `${described} — ${subject.work[kind]}${keyField}${retries}`;
}
