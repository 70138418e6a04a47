import { gzipSync } from 'node:zlib';
import type { ICredentialType, INodeParameters, IWebhookFunctions } from 'n8n-workflow';

import { ErpApi } from '../../credentials/ErpApi.credentials';
import { Erp } from '../../nodes/Erp/Erp.node';
import { ErpTrigger } from '../../nodes/ErpTrigger/ErpTrigger.node';
import { runListSearch } from '../../tooling/harness/run-list-search';
import { runNode, type RunNodeOptions } from '../../tooling/harness/run-node';
import { runWebhook, type WebhookHarness } from '../../tooling/harness/run-webhook';
import { useTestSandbox } from '../../tooling/harness/sandbox';
import { byId } from '../../tooling/host/workflows';

const sandbox = useTestSandbox();

// Every ERP node test (test/nodes/Erp/operations/) runs through runNode and checks its credential applied, its
// items, its error and its error items with Continue On Fail (failures.test.ts), the highest version by default or the
// one asked for (versions.test.ts): what is left here is what they do not use.
describe('runNode', () => {
	/** Two contacts in the sandbox, their ids. */
	async function seedContacts(): Promise<[number, number]> {
		await sandbox.admin.seed({ contacts: 2 });
		const [first, second] = await sandbox.admin.records('contacts');
		return [first.id, second.id];
	}

	/** The API requests the sandbox answered, as `METHOD path?query auth status`. */
	async function requests(): Promise<string[]> {
		return (await sandbox.admin.requests()).map(({ method, path, query, auth, status }) => {
			const search = new URLSearchParams(query).toString();
			return `${method} ${path}${search ? `?${search}` : ''} ${auth} ${String(status)}`;
		});
	}

	/** Runs the ERP node on the sandbox; `parameters` are merged over Contact › Get. */
	const run = ({ parameters, ...overrides }: Partial<RunNodeOptions> = {}) =>
		runNode({
			nodeType: new Erp(),
			credentialType: new ErpApi(),
			credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
			parameters: { resource: 'contact', operation: 'get', ...parameters },
			...overrides,
		});

	it('refuses a credential type whose authentication it does not emulate (generic), before any request', async () => {
		const generic: ICredentialType = {
			...new ErpApi(),
			authenticate: { type: 'generic', properties: { headers: { Authorization: '=Bearer {{$credentials.apiToken}}' } } },
		};
		const { error } = await run({ credentialType: generic, parameters: { contactId: byId(1) } });

		expect(error?.message).toBe('Credential type "erpApi" extends others, pre-authenticates or authenticates generically: the harness does not support it');
		expect(await requests()).toEqual([]);
	});

	it('resolves expressions in credential data', async () => {
		const [id] = await seedContacts();
		const [head, tail] = [sandbox.token.slice(0, 3), sandbox.token.slice(3)];
		const { error } = await run({
			parameters: { contactId: byId(id) },
			credentials: { baseUrl: `={{ "${sandbox.baseUrl}" }}`, apiToken: `={{ "${head}" + "${tail}" }}` },
		});

		expect(error).toBeUndefined();
		expect(await requests()).toEqual([`GET /contacts/${id} full 200`]);
	});

	it('resolves parameter expressions per item, inside resource locators too', async () => {
		const [a, b] = await seedContacts();
		const { items } = await run({
			parameters: {
				operation: 'update',
				contactId: byId('={{ $json.id }}'),
				updateFields: { company: '={{ $json.text.toUpperCase() }} from {{ $("Start").item.json.id }}' },
			},
			input: [
				{ id: a, text: 'one' },
				{ id: b, text: 'two' },
			],
		});

		expect((await requests()).filter((request) => request.startsWith('PUT'))).toEqual([
			`PUT /contacts/${a} full 200`,
			`PUT /contacts/${b} full 200`,
		]);
		expect(items.map((item) => item.json.company)).toEqual([`ONE from ${a}`, `TWO from ${b}`]);
	});

	it('records the ExpressionError of a parameter that cannot be resolved, before any request', async () => {
		const { items, error } = await run({ parameters: { contactId: byId(1), options: { concurrency: '={{ $("Nope").item.json.x }}' } } });

		expect(items).toEqual([]);
		expect(error).toMatchObject({ name: 'ExpressionError', message: "Referenced node doesn't exist" });
		expect(await requests()).toEqual([]);
	});

	it('resolves an expression that throws a TypeError to nothing, as n8n does', async () => {
		const { error } = await run({
			parameters: { operation: 'getAll', filters: { search: '={{ $json.count.toUpperCase() }}' } },
			input: [{ count: 5 }],
		});

		expect(error).toBeUndefined();
		expect(await requests()).toEqual(['GET /contacts?page=1&per_page=50 full 200']);
	});
});

// The ERP Trigger's tests (test/nodes/ErpTrigger/) run through runWebhook: its answers to malformed JSON (422), to
// another method (404), the node's own answer, and calls that arrive later are theirs (requests.test.ts, harness.ts).
describe('runWebhook', () => {
	async function post(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
		const response = await fetch(url, { method: 'POST', body, headers });
		return { status: response.status, text: await response.text(), contentType: response.headers.get('content-type') };
	}

	const json = { 'content-type': 'application/json' };
	const DELIVERY = { event: 'invoice.paid', data: { invoice_id: 7 } };
	const CREDENTIALS = { baseUrl: 'https://erp.example.com/api/v1', apiToken: 'token-123' };

	/** The ERP Trigger, its webhook() spied on: each call's `this` is the WebhookContext n8n-core gave the node. */
	let trigger: ErpTrigger;
	let webhook: jest.SpyInstance;
	const context = (call = 0) => webhook.mock.contexts[call] as IWebhookFunctions;

	/** The ERP Trigger with its answer (webhookResponse) dropped: the real node always gives one, n8n's default is for nodes that do not. */
	function silentTrigger(): ErpTrigger {
		const node = new ErpTrigger();
		const { webhook: answering } = node;
		node.webhook = async function (this: IWebhookFunctions) {
			return { ...(await answering.call(this)), webhookResponse: undefined };
		};
		return node;
	}

	let harness: WebhookHarness;
	const others: WebhookHarness[] = [];
	const start = async (parameters: INodeParameters, nodeType = new ErpTrigger()) => {
		const started = await runWebhook({ nodeType, typeVersion: 1, parameters, credentialType: new ErpApi(), credentials: CREDENTIALS });
		others.push(started);
		return started;
	};

	beforeEach(async () => {
		trigger = new ErpTrigger();
		webhook = jest.spyOn(trigger, 'webhook');
		harness = await runWebhook({ nodeType: trigger, typeVersion: 1, parameters: { events: ['*'] }, credentialType: new ErpApi(), credentials: CREDENTIALS });
	});

	afterEach(async () => {
		await Promise.all([harness, ...others.splice(0)].map(async (started) => await started.close()));
	});

	it('serves the production URL n8n shows: /webhook/<webhookId>/<path>', async () => {
		expect(harness.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook\/[0-9a-f-]{36}\/webhook$/);
		expect(harness.testUrl).toBe(harness.url.replace('/webhook/', '/webhook-test/'));
	});

	// What a call records (status, answer, raw body, the items it starts): read by every ERP Trigger test (test/nodes/ErpTrigger/harness.ts).
	it('gives the node the parsed JSON body and the raw bytes, in webhook mode', async () => {
		const raw = '{"event":"invoice.paid",  "data":{"invoice_id":7}}';
		const answer = await post(`${harness.url}?x=1`, raw, json);

		expect(answer).toEqual({ status: 200, text: '{"message":"Event received"}', contentType: 'application/json; charset=utf-8' });
		expect(harness.calls[0].mode).toBe('webhook');
		expect(context().getBodyData()).toEqual(DELIVERY);
		expect(context().getRequestObject().rawBody?.toString()).toBe(raw);
		expect(context().getQueryData()).toEqual({ x: '1' });
		expect(context().getRequestObject().contentType).toBe('application/json');
		expect(context().getMode()).toBe('webhook');
		expect(context().getNodeWebhookUrl('default')).toBe(harness.url);
	});

	it('runs the test URL in manual mode', async () => {
		await post(harness.testUrl, JSON.stringify(DELIVERY), json);

		expect(harness.calls[0].mode).toBe('manual');
		expect(context().getMode()).toBe('manual');
		expect(context().getWebhookResourceUrl('default')).toBe(harness.testUrl);
	});

	it('gives the node its credential as n8n decrypts it, with the type’s defaults', async () => {
		// Verification shows the credential to the node; without the secret the node then refuses the call.
		const verifying = await start({ events: ['*'], verification: 'sharedSecret', sharedHeader: 'X-Secret' }, trigger);
		await post(verifying.url, JSON.stringify(DELIVERY), json);

		expect(await context().getCredentials('erpApi')).toEqual({ ...CREDENTIALS, webhookSecret: '' });
	});

	it('answers a body over n8n’s 16 MiB limit 500 before the node sees it, as n8n does', async () => {
		const answer = await post(harness.url, Buffer.alloc(16 * 1024 * 1024 + 1, 0x20), json);

		expect(answer.status).toBe(500);
		expect(JSON.parse(answer.text)).toEqual({ code: 0, message: 'There was a problem executing the workflow' });
		expect(webhook).not.toHaveBeenCalled();
	});

	it('parses url-encoded bodies, passes text as a string and unknown types without a body', async () => {
		await post(harness.url, 'event=invoice.paid&n=1', { 'content-type': 'application/x-www-form-urlencoded' });
		await post(harness.url, 'plain words', { 'content-type': 'text/plain' });
		await post(harness.url, '{"a":1}', { 'content-type': 'application/octet-stream' });

		expect(context(0).getBodyData()).toEqual({ event: 'invoice.paid', n: '1' });
		expect(context(1).getBodyData()).toBe('plain words');
		expect(context(1).getRequestObject()).toMatchObject({ contentType: 'text/plain' });
		expect(context(2).getBodyData()).toBeUndefined();
		expect(context(2).getRequestObject().rawBody?.toString()).toBe('{"a":1}');
	});

	it('inflates a gzip body', async () => {
		await post(harness.url, gzipSync(JSON.stringify(DELIVERY)), { ...json, 'content-encoding': 'gzip' });

		expect(context().getBodyData()).toEqual(DELIVERY);
		expect(harness.calls[0].workflowData?.[0][0].json.event).toBe('invoice.paid');
	});

	it.each([
		['starts nothing', ['product.low_stock'], 'Webhook call received', 0],
		['starts the workflow', ['*'], 'Workflow was started', 1],
	])('answers n8n’s default when the node %s and says nothing', async (_what, events, message, started) => {
		const silent = await start({ events }, silentTrigger());
		const answer = await post(silent.url, JSON.stringify(DELIVERY), json);

		expect(answer.status).toBe(200);
		expect(JSON.parse(answer.text)).toEqual({ message });
		expect(silent.calls[0].workflowData?.length ?? 0).toBe(started);
	});

	it('answers 500 like n8n when webhook() throws, and records the error', async () => {
		const failing = await start({ events: ['*'], options: { deliveryIdHeader: 'X-Id: 5' } });
		const answer = await post(failing.url, JSON.stringify(DELIVERY), json);

		expect(answer.status).toBe(500);
		expect(JSON.parse(answer.text)).toEqual({
			code: 0,
			message: 'Workflow Webhook Error: Workflow could not be started!',
		});
		expect(failing.calls[0].error?.message).toMatch(/^Options › Delivery ID Header "X-Id: 5" is not a header name/);
	});

	it('answers 404 for another path', async () => {
		const wrongPath = await post(harness.url.replace(/webhook$/, 'other'), '{}', json);

		expect(wrongPath.status).toBe(404);
		expect(JSON.parse(wrongPath.text).message).toMatch(/^The requested webhook "POST .*\/other" is not registered\.$/);
		expect(webhook).not.toHaveBeenCalled();
	});

	it('fails a wait that gets too few calls', async () => {
		await expect(harness.waitForCalls(1, 50)).rejects.toThrow('Expected 1 webhook call(s) within 50 ms, got 0');
	});

	it('answers the literal "firstEntryJson" without responseData on the webhook description, the n8n 2.41 quirk', async () => {
		const quirky = new ErpTrigger();
		const webhooks = quirky.description.webhooks?.map(({ responseData: _, ...description }) => description);
		quirky.description = { ...quirky.description, webhooks };
		const answer = await post((await start({ events: ['*'] }, quirky)).url, JSON.stringify(DELIVERY), json);

		expect(answer).toMatchObject({ status: 200, text: 'firstEntryJson' });
	});
});

// Paging with the token and the filter: test/nodes/Erp/operations/listSearch.test.ts.
describe('runListSearch', () => {
	it('rejects an unknown method', async () => {
		await expect(
			runListSearch({ nodeType: new Erp(), method: 'nope', credentialType: new ErpApi(), credentials: {} }),
		).rejects.toThrow('Node "erp" has no listSearch method "nope"');
	});
});
