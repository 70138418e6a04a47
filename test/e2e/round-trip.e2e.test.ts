import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import { roundTripsFile } from './setup/results';
import { allExecutions } from '../../tooling/host/executions';
import { byId, chain, erpNode, webhookNode } from '../../tooling/host/workflows';
import { useSession } from './setup/session';

const CALLS = 30;

// Timed, never asserted on time: the figures go to docs/e2e-results.json (min / median / max) for the README.
describe('webhook → ERP node → sandbox round trips', () => {
	const session = useSession();

	test(`${CALLS} sequential calls each answer the contact the ERP holds, after one GET each`, async () => {
		const contact = (await session.sandbox.records('contacts'))[1];
		const path = `erp-round-trip-${Date.now()}`;
		const erp = erpNode({ resource: 'contact', operation: 'get', contactId: byId(contact.id) }, session.ctx.credentials.good);
		const workflow = await session.n8n.createActiveWorkflow(chain(`e2e ${path}`, [webhookNode(path), erp]));
		/** Why a call was not answered with the contact: n8n's answer and the failed execution's error. */
		const failure = async (response: unknown) => {
			const latest = (await allExecutions(session.n8n, workflow.id, true)).at(-1);
			return `${JSON.stringify(response)}; last execution: ${latest?.status} ${latest?.data?.resultData.error?.message ?? ''}`;
		};
		// The first call of a new workflow also pays for loading it: not timed.
		expect(await session.n8n.callWebhook(path, {})).toEqual({ status: 200, body: [contact] });
		// Earlier tests may have used up much of the sandbox's 600-a-minute window; its waits are not what is timed.
		const { rateLimit } = await session.sandbox.faults();
		await session.sandbox.setFaults({ rateLimit: null });
		const since = await session.sandbox.lastRequestSeq();

		const samplesMs: number[] = [];
		try {
			for (let call = 0; call < CALLS; call++) {
				const started = performance.now();
				const response = await session.n8n.callWebhook(path, {});
				samplesMs.push(performance.now() - started);
				if (response.status !== 200) throw new Error(`call ${call + 1} of ${CALLS} failed: ${await failure(response)}`);
				expect(response.body).toEqual([contact]);
			}
		} finally {
			await session.sandbox.setFaults({ rateLimit });
		}

		const requests = await session.sandbox.requests(since);
		expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(Array(CALLS).fill(`GET /contacts/${contact.id} 200`));
		writeFileSync(roundTripsFile(), JSON.stringify(samplesMs));
	});
});
