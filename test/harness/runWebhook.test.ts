import { gzipSync } from 'node:zlib';

import { runWebhook, type WebhookHarness } from './run-webhook';
import { EchoTrigger, echoTriggerInvocations, EchoTriggerWithoutResponseData } from './fixtures/EchoTrigger.node';

async function post(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
	const response = await fetch(url, { method: 'POST', body, headers });
	return { status: response.status, text: await response.text(), contentType: response.headers.get('content-type') };
}

const json = { 'content-type': 'application/json' };

describe('runWebhook', () => {
	let harness: WebhookHarness;

	beforeEach(async () => {
		harness = await runWebhook({ nodeType: new EchoTrigger(), parameters: {} });
		echoTriggerInvocations.count = 0;
	});

	afterEach(async () => {
		await harness.close();
	});

	it('serves the production URL n8n shows: /webhook/<webhookId>/<path>', async () => {
		expect(harness.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook\/[0-9a-f-]{36}\/echo$/);
		expect(harness.testUrl).toBe(harness.url.replace('/webhook/', '/webhook-test/'));
	});

	it('gives the node the parsed JSON body and the raw bytes, and records what it would start', async () => {
		const raw = '{"event":"contact.created",  "n":1}';
		const answer = await post(`${harness.url}?x=1`, raw, json);

		expect(answer).toEqual({ status: 200, text: '{"received":true}', contentType: 'application/json; charset=utf-8' });
		const [call] = harness.calls;
		expect(call.mode).toBe('webhook');
		expect(call.status).toBe(200);
		expect(call.body).toEqual({ received: true });
		expect(call.request.rawBody?.toString()).toBe(raw);
		expect(call.workflowData).toEqual([
			[
				{
					json: {
						body: { event: 'contact.created', n: 1 },
						rawBody: raw,
						query: { x: '1' },
						contentType: 'application/json',
						mode: 'webhook',
						url: harness.url,
					},
				},
			],
		]);
	});

	it('runs the test URL in manual mode', async () => {
		await post(harness.testUrl, '{}', json);

		expect(harness.calls[0].mode).toBe('manual');
		expect(harness.calls[0].workflowData?.[0][0].json.mode).toBe('manual');
	});

	it('answers malformed JSON 422 before the node sees it, as n8n does', async () => {
		const answer = await post(harness.url, '{"event": ', json);

		expect(answer.status).toBe(422);
		expect(JSON.parse(answer.text)).toMatchObject({ code: 422, message: 'Failed to parse request body' });
		expect(echoTriggerInvocations.count).toBe(0);
		expect(harness.calls[0].workflowData).toBeUndefined();
	});

	it('answers a body over n8n’s 16 MiB limit 500 before the node sees it, as n8n does', async () => {
		const answer = await post(harness.url, Buffer.alloc(16 * 1024 * 1024 + 1, 0x20), json);

		expect(answer.status).toBe(500);
		expect(JSON.parse(answer.text)).toEqual({ code: 0, message: 'There was a problem executing the workflow' });
		expect(echoTriggerInvocations.count).toBe(0);
	});

	it('passes other content types through: text as a string, unknown types without a body', async () => {
		await post(harness.url, 'plain words', { 'content-type': 'text/plain' });
		await post(harness.url, '{"a":1}', { 'content-type': 'application/octet-stream' });

		const [text, octets] = harness.calls.map((call) => call.workflowData?.[0][0].json);
		expect(text).toMatchObject({ body: 'plain words', rawBody: 'plain words', contentType: 'text/plain' });
		expect(octets).toMatchObject({ rawBody: '{"a":1}', contentType: 'application/octet-stream' });
		expect(octets?.body).toBeUndefined();
	});

	it('inflates a gzip body', async () => {
		await post(harness.url, gzipSync('{"zipped":true}'), { ...json, 'content-encoding': 'gzip' });

		expect(harness.calls[0].workflowData?.[0][0].json.body).toEqual({ zipped: true });
	});

	it('sends the node’s own answer when it returns noWebhookResponse, and records that nothing starts', async () => {
		const answer = await post(harness.url, '{}', { ...json, 'x-answer': '401' });

		expect(answer.status).toBe(401);
		expect(JSON.parse(answer.text)).toEqual({ reason: 'rejected by the node' });
		expect(harness.calls[0]).toMatchObject({ status: 401, body: { reason: 'rejected by the node' } });
		expect(harness.calls[0].workflowData).toBeUndefined();
	});

	it('answers n8n’s default when the node starts nothing and says nothing', async () => {
		const answer = await post(harness.url, '{}', { ...json, 'x-answer': 'none' });

		expect(answer.status).toBe(200);
		expect(JSON.parse(answer.text)).toEqual({ message: 'Webhook call received' });
	});

	it('answers 500 like n8n when webhook() throws, and records the error', async () => {
		const answer = await post(harness.url, '{}', { ...json, 'x-answer': 'throw' });

		expect(answer.status).toBe(500);
		expect(JSON.parse(answer.text)).toEqual({
			code: 0,
			message: 'Workflow Webhook Error: Workflow could not be started!',
		});
		expect(harness.calls[0].error?.message).toBe('Node failed');
	});

	it('answers 404 for another path or method', async () => {
		const wrongPath = await post(harness.url.replace(/echo$/, 'other'), '{}', json);
		const wrongMethod = await fetch(harness.url);

		expect(wrongPath.status).toBe(404);
		expect(JSON.parse(wrongPath.text).message).toMatch(/^The requested webhook "POST .*\/other" is not registered\.$/);
		expect(wrongMethod.status).toBe(404);
		expect(((await wrongMethod.json()) as { message: string }).message).toBe(
			'This webhook is not registered for GET requests. Did you mean to make a POST request?',
		);
		expect(echoTriggerInvocations.count).toBe(0);
	});

	it('waits for calls that arrive later', async () => {
		const waiting = harness.waitForCalls(2);
		await post(harness.url, '{"n":1}', json);
		await post(harness.url, '{"n":2}', json);

		const calls = await waiting;
		expect(calls.map((call) => call.workflowData?.[0][0].json.body)).toEqual([{ n: 1 }, { n: 2 }]);
	});

	it('fails a wait that gets too few calls', async () => {
		await expect(harness.waitForCalls(1, 50)).rejects.toThrow('Expected 1 webhook call(s) within 50 ms, got 0');
	});
});

describe('runWebhook without responseData on the webhook description', () => {
	it('answers the literal "firstEntryJson", the n8n 2.41 quirk a trigger avoids with responseData: ""', async () => {
		const harness = await runWebhook({ nodeType: new EchoTriggerWithoutResponseData(), parameters: {} });
		try {
			const answer = await post(harness.url, '{}', json);

			expect(answer).toMatchObject({ status: 200, text: 'firstEntryJson' });
		} finally {
			await harness.close();
		}
	});
});
