import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ErpApi } from '../../credentials/ErpApi.credentials';
import { ErpPollingTrigger } from '../../nodes/ErpPollingTrigger/ErpPollingTrigger.node';
import { SandboxAdmin } from '../../sandbox/adminClient';
import { createContact } from '../contacts';
import { startSandbox } from '../../sandbox/server';
import { createPoller, type Poller } from '../../tooling/harness/run-poll';

/** What one poll of the ERP Polling Trigger costs: requests to the ERP, time, and the memory n8n stores for it. */
export interface PollCost {
	records: number;
	watch: string;
	/** The first poll (activation): the list scanned until stable, nothing reported. */
	baselineRequests: number;
	baselineMs: number;
	/** A poll with nothing changed. */
	steadyRequests: number;
	steadyMs: number;
	/** A poll after 5 creates, 5 updates and 2 deletes. */
	changedRequests: number;
	changedReported: number;
	/** The static data n8n saves for the node, as JSON. */
	stateBytes: number;
	stateBytesPerRecord: number;
}

const WATCHES: Array<[string, INodeParameters]> = [
	['Record Added', { triggerOn: 'contact:recordAdded' }],
	['Record Updated, every field', { triggerOn: 'contact:recordUpdated' }],
	['Record Updated, Fields to Watch: email', { triggerOn: 'contact:recordUpdated', fieldsToWatch: 'email' }],
	['Field Becomes a Value', { triggerOn: 'contact:fieldValue', field: 'company', value: 'Ostwind AG' }],
];

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
	const started = performance.now();
	const value = await work();
	return { value, ms: Math.round(performance.now() - started) };
}

async function poll(trigger: Poller): Promise<number> {
	const { items, error } = await trigger.poll();
	if (error) throw error;
	return items?.length ?? 0;
}

/**
 * The trigger run in-process (n8n-core's PollContext, as an active workflow runs it) against a loopback sandbox
 * seeded with `sizes` contacts: requests and stored memory do not depend on n8n, only on the records.
 */
export async function pollingCost(sizes: number[]): Promise<PollCost[]> {
	const results: PollCost[] = [];
	const sandbox = await startSandbox({ rateLimit: null, overdueSweepMs: 0 });
	const admin = new SandboxAdmin(sandbox.url);
	const api = { baseUrl: sandbox.baseUrl, token: sandbox.token };
	const send = async (method: 'PUT' | 'DELETE', path: string, body?: object) => {
		const response = await fetch(`${api.baseUrl}${path}`, {
			method,
			headers: { Authorization: `Bearer ${api.token}`, 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
	};
	const requestsDuring = async (work: () => Promise<number>) => {
		const since = await admin.lastRequestSeq();
		const { value, ms } = await timed(work);
		return { reported: value, ms, requests: (await admin.requests(since)).length };
	};
	try {
		for (const records of sizes) {
			for (const [watch, parameters] of WATCHES) {
				await admin.reset();
				await admin.seed({ contacts: records });
				const trigger = createPoller({
					nodeType: new ErpPollingTrigger(),
					parameters,
					credentialType: new ErpApi(),
					credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
					// The watches as version 1 names them: Resource and Trigger On.
					typeVersion: 1,
				});
				const baseline = await requestsDuring(() => poll(trigger));
				const steady = await requestsDuring(() => poll(trigger));
				for (let i = 1; i <= 5; i++) {
					await createContact(api, { first_name: 'New', last_name: `Contact ${i}`, email: `new${i}@example.com`, company: 'New Co' });
					await send('PUT', `/contacts/${i * 10}`, { email: `changed${i}@example.com`, company: 'Ostwind AG' });
				}
				for (const id of [3, 4]) await send('DELETE', `/contacts/${id}`);
				const changed = await requestsDuring(() => poll(trigger));
				const stateBytes = JSON.stringify(trigger.saved() as IDataObject).length;
				results.push({
					records,
					watch,
					baselineRequests: baseline.requests,
					baselineMs: baseline.ms,
					steadyRequests: steady.requests,
					steadyMs: steady.ms,
					changedRequests: changed.requests,
					changedReported: changed.reported,
					stateBytes,
					stateBytesPerRecord: Math.round((stateBytes / records) * 10) / 10,
				});
			}
		}
	} finally {
		await sandbox.close();
	}
	return results;
}
