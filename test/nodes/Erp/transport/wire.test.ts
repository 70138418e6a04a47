// What only real HTTP shows: the ERP node in n8n-core's WorkflowExecute, over n8n's own HTTP client, against a scripted
// ERP. n8n's cancel breaking off a request on the wire, and a refused connection, arrive as errors of that client's
// shape; every other rule is proven over the scripted helper (requests, waits, unclear, paginate, rateControl).
import { ErpApi } from '../../../../credentials/ErpApi.credentials';
import { Erp } from '../../../../nodes/Erp/Erp.node';
import { runNode } from '../../../../tooling/harness/run-node';
import { byId } from '../operations/setup';
import { useScriptedErp } from './scriptedErp';

let runs = 0;
/** Reads contact 1 with the ERP node; a token of its own each run, so no wait named to an earlier test holds it. */
const readContact = async (baseUrl: string, { cancelWhen, maxRetries }: { cancelWhen?: Promise<unknown>; maxRetries?: number } = {}) =>
	await runNode({
		nodeType: new Erp(),
		credentialType: new ErpApi(),
		credentials: { baseUrl, apiToken: `scripted-token-${++runs}` },
		parameters: { resource: 'contact', operation: 'get', contactId: byId(1), ...(maxRetries === undefined ? {} : { options: { maxRetries } }) },
		cancelWhen,
	});

describe('on the wire, through n8n', () => {
	const erp = useScriptedErp();

	it('a cancel that breaks off a request on the wire is not taken for a network failure to retry', async () => {
		let arrived: () => void = () => undefined;
		const onTheWire = new Promise<void>((resolve) => (arrived = resolve));
		erp.answer(() => {
			arrived();
			return 'hold';
		});
		const result = await readContact(erp.baseUrl, { cancelWhen: onTheWire });
		expect(result.error).toMatchObject({ name: 'NodeOperationError', message: 'The execution was cancelled: no further request was sent to the ERP' });
		expect(erp.requests).toHaveLength(1);
	});

	it('a refused connection is read as one: retried, then "could not connect", temporarily unavailable', async () => {
		const result = await readContact('http://127.0.0.1:1/api/v1', { maxRetries: 1 });
		expect(result.error).toMatchObject({ name: 'NodeApiError', message: 'Could not connect to the ERP at 127.0.0.1:1 after 1 retry: connection refused' });
		expect((result.error as { failure?: unknown }).failure).toEqual({ cause: 'temporarily-unavailable' });
	});
});
