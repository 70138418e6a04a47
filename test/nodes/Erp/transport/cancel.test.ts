import { runProbe } from './probe';
import { useScriptedErp } from './scriptedErp';

const getContact = { request: { method: 'GET' as const, path: '/contacts/1', doing: { action: 'read contact 1', noun: 'contact', id: 1 } } };
const cancelled = { name: 'NodeOperationError', message: 'The execution was cancelled: no further request was sent to the ERP' };

describe('a cancelled execution in n8n (the Stop button: n8n aborts its cancel signal)', () => {
	const erp = useScriptedErp();

	it('ends a back-off wait at once and sends nothing more', async () => {
		// The ERP asks for a 200 s wait, well within the wait budget: only the cancel can end it within the test's time.
		erp.answer(() => ({ status: 429, headers: { 'Retry-After': '200' }, body: { message: 'slow down' } }));
		// Stopped a moment after the 429 went out, once the node is waiting (should it still be reading, the cancel
		// breaks off the read instead: the outcome is the same).
		const waiting = erp.answered(1).then(async () => await new Promise((resolve) => setTimeout(resolve, 300)));
		const result = await runProbe({ baseUrl: erp.baseUrl, calls: [getContact], cancelWhen: waiting });
		expect(result.error).toMatchObject(cancelled);
		expect(erp.requests).toHaveLength(1);
	});

	it('is not taken for a network failure to retry when it breaks off a request on the wire', async () => {
		let arrived: () => void = () => undefined;
		const onTheWire = new Promise<void>((resolve) => (arrived = resolve));
		erp.answer(() => {
			arrived();
			return 'hold';
		});
		const result = await runProbe({ baseUrl: erp.baseUrl, calls: [getContact], cancelWhen: onTheWire });
		expect(result.error).toMatchObject(cancelled);
		expect(erp.requests).toHaveLength(1);
	});
});
