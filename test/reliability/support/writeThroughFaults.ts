import { sleep } from '../../../tooling/host/processes';
import type { ReliabilitySession } from '../setup/context';

/**
 * Writes to the ERP's API while its random faults are on. The scenarios that use it set faultTiming 'before': a
 * fault strikes before the ERP commits anything, so a struck write is sent again until it goes through and each
 * change is made once. `onRetry` counts the writes sent again.
 */
export async function writeThroughFaults<T>(session: ReliabilitySession, method: string, path: string, body?: object, onRetry?: () => void): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		let status = 0;
		let text = '';
		try {
			const response = await fetch(`${session.ctx.sandboxBaseUrl}${path}`, {
				method,
				headers: { authorization: `Bearer ${session.ctx.token}`, 'content-type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			status = response.status;
			text = await response.text();
		} catch {
			// A dropped connection: nothing was written.
		}
		if (status >= 200 && status < 300) return (text ? (JSON.parse(text) as { data: T }).data : undefined) as T;
		if (status !== 0 && status < 500) throw new Error(`sandbox API answered ${status} to ${method} ${path}: ${text}`);
		if (attempt === 50) throw new Error(`${method} ${path} struck by faults 50 times in a row`);
		onRetry?.();
		await sleep(20);
	}
}
