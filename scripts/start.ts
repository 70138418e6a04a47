/**
 * `npm start`: the sandbox ERP and a real n8n with this package installed, the owner account, the "ERP API" and
 * "MCP Bearer Token" credentials, the example workflows imported, three of them published: the overdue-invoice
 * reminder (its ERP Trigger subscribed to the sandbox's events), the polling low-stock alert (the webhook low-stock
 * alert, which acts on the same stock drops, stays unpublished: HELD_IN_DEMO) and the assistant tools over MCP, whose
 * URL and client configuration it prints. Ctrl-C stops everything.
 *
 * Env: N8N_VERSION (default the tested 2.x version, tooling/host/tested-n8n.json; its 1.x version installs beside it on
 * first use), N8N_PORT (5678), SANDBOX_PORT (4010), DEMO_OWNER_EMAIL, DEMO_OWNER_PASSWORD, DEMO_MCP_TOKEN (the MCP
 * server's bearer token), DEMO_USER_FOLDER (keep
 * n8n's data there between runs; default: a fresh temporary folder, deleted on exit; n8n cannot go back to an older
 * version's database, so keep one folder per n8n version).
 */
import { DEMO_MCP_TOKEN, DEMO_SANDBOX, importExamples } from '../tooling/host/demoWorkflows';
import { erpTriggers, erpTriggerType, triggerUrl } from '../tooling/host/examples';
import { isN8nInstalled, N8N_CACHE, N8N_VERSION } from '../tooling/host/install';
import { clientConfigs } from '../tooling/host/mcp';
import { assertPortFree } from '../tooling/host/ports';
import { stopOnSignals } from '../tooling/host/processes';
import { startStack, type Stack } from '../tooling/host/stack';
import { WAREHOUSES } from '../sandbox/stock';
import firstStart from './first-start.json';

const DEFAULTS = { N8N_PORT: '5678', SANDBOX_PORT: '4010', DEMO_OWNER_EMAIL: 'demo@example.com', DEMO_OWNER_PASSWORD: 'ErpDemo-2026', DEMO_MCP_TOKEN };
type Setting = keyof typeof DEFAULTS;

const say = (line = '') => process.stdout.write(`${line}\n`);
const setting = (name: Setting) => process.env[name] || DEFAULTS[name];

function port(name: 'N8N_PORT' | 'SANDBOX_PORT'): number {
	const value = Number(setting(name));
	if (!Number.isInteger(value) || value < 1 || value > 65535) throw new Error(`${name} must be a port number, not "${setting(name)}"`);
	return value;
}

function checkPassword(password: string): void {
	// n8n's own rule for the owner account.
	if (password.length < 8 || !/\d/.test(password) || !/[A-Z]/.test(password)) {
		throw new Error('DEMO_OWNER_PASSWORD needs 8 or more characters with at least one digit and one capital letter');
	}
}

/** The MCP server's URL and token, and what to paste into an MCP client to use the ERP tools from an assistant. */
function printMcpClients(url: string, token: string): void {
	const { bridged, streamableHttp } = clientConfigs('erp', url, token);
	const indented = (config: object) => JSON.stringify(config, null, 2).replace(/^/gm, '    ');
	say(`MCP server   ${url}   (Streamable HTTP; bearer token ${token}, credential "MCP Bearer Token")`);
	say('  Claude Desktop (claude_desktop_config.json), through the mcp-remote bridge:');
	say(indented(bridged));
	say('  clients that speak Streamable HTTP themselves (Claude Code, Cursor, VS Code; the key is "servers" in VS Code):');
	say(indented(streamableHttp));
}

/** The production URLs of a published workflow's ERP Triggers (none for a polling or MCP workflow). */
async function productionUrls(started: Stack, workflowId: string): Promise<string[]> {
	const triggers = erpTriggers(await started.client.getWorkflow(workflowId));
	if (triggers.length === 0) return [];
	const type = await erpTriggerType(started.client);
	return triggers.map((trigger) => triggerUrl(started.n8n.baseUrl, trigger, type));
}

let stack: Stack | undefined;

async function main(): Promise<void> {
	const stop = async () => {
		await stack?.stop();
		say('n8n and the sandbox stopped.');
	};
	stopOnSignals(stop, say, 0);
	const n8nPort = port('N8N_PORT');
	const sandboxPort = port('SANDBOX_PORT');
	const owner = { email: setting('DEMO_OWNER_EMAIL'), password: setting('DEMO_OWNER_PASSWORD'), firstName: 'Demo', lastName: 'Owner' };
	checkPassword(owner.password);
	await assertPortFree(n8nPort, 'N8N_PORT');
	await assertPortFree(sandboxPort, 'SANDBOX_PORT');

	say('n8n-nodes-erp demo: sandbox ERP + real n8n with this package (Ctrl-C stops everything)');
	say(`settings: N8N_VERSION=${N8N_VERSION} ${(Object.keys(DEFAULTS) as Setting[]).map((name) => `${name}=${/PASSWORD|TOKEN/.test(name) ? '…' : setting(name)}`).join(' ')}`);
	if (!isN8nInstalled(N8N_VERSION)) {
		say(`first start: installing n8n ${N8N_VERSION} and the Node 24 it runs on into ${N8N_CACHE}, once.`);
		say(`  It takes about ${firstStart.minutes} min and ${firstStart.gigabytes} GB of disk (2-core machine), with a progress line every 10 s;`);
		say('  later starts take under a minute.');
	}
	stack = await startStack({
		n8nPort,
		owner,
		userFolder: process.env.DEMO_USER_FOLDER || undefined,
		sandbox: { port: sandboxPort, ...DEMO_SANDBOX },
		log: (line) => say(`… ${line}`),
	});
	const mcpToken = setting('DEMO_MCP_TOKEN');
	const imported = await importExamples(stack, mcpToken);

	const { n8n, sandbox, install } = stack;
	say();
	say(`n8n editor   ${n8n.baseUrl}   (n8n ${install.version} on Node ${install.nodeVersion})`);
	say(`login        ${owner.email} / ${owner.password}${process.env.DEMO_OWNER_PASSWORD ? '' : '   (DEMO_OWNER_EMAIL, DEMO_OWNER_PASSWORD)'}`);
	say(`sandbox ERP  ${sandbox.baseUrl}   token ${sandbox.token} (credential "ERP API")`);
	say('workflows');
	let forgeAt: string | undefined;
	for (const { name, workflowId, events, held, mcpUrl } of imported) {
		const startedBy = events.includes('polling')
			? 'polls the ERP every minute (no public URL needed)'
			: mcpUrl
				? `MCP clients at ${mcpUrl}`
				: `ERP events: ${events.join(', ')}`;
		const why = held ?? 'open it and click Execute workflow';
		say(`  ${events.length ? `published    ${name}  ← ${startedBy}` : `unpublished  ${name}  (${why})`}`);
		const urls = events.length ? await productionUrls(stack, workflowId) : [];
		for (const url of urls) say(`               production URL ${url}  (what the ERP posts its events to)`);
		forgeAt ??= urls[0];
	}
	say('send an event from the ERP, then look at Executions in the editor:');
	say(`  curl -s -X POST ${sandbox.url}/__sandbox/events -H 'content-type: application/json' -d '{"event":"invoice.overdue"}'`);
	if (forgeAt) {
		say('or forge one: the ERP Trigger asks the ERP first and answers "not confirmed by the ERP"; nothing acts on it:');
		say(`  curl -s -X POST ${forgeAt} -H 'content-type: application/json' -d '{"event":"invoice.overdue","data":{"invoice_id":999999}}'`);
	}
	say("or empty product 1's warehouses (the polling low-stock alert reports it within a minute, one purchase request):");
	const warehouses = WAREHOUSES.map((w) => w.id).join(' ');
	say(
		`  for w in ${warehouses}; do curl -s -X PUT ${sandbox.url}/__sandbox/stock -H 'content-type: application/json' -d '{"product_id":1,"warehouse_id":'$w',"quantity":0}'; done`,
	);
	for (const { mcpUrl } of imported.filter((workflow) => workflow.mcpUrl)) printMcpClients(mcpUrl as string, mcpToken);
	say(`n8n log      ${n8n.logFile}`);
	say('Ctrl-C stops everything.');
}

main().catch(async (error: unknown) => {
	process.stderr.write(`\nnpm start failed: ${error instanceof Error ? error.message : String(error)}\n`);
	await stack?.stop();
	process.exit(1);
});
