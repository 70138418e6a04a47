/**
 * `npm start`: the sandbox ERP and a real n8n with this package installed, the owner account, the "ERP API"
 * credential, the six example workflows imported, two of them published: the overdue-invoice reminder (its ERP
 * Trigger subscribed to the sandbox's events) and the polling low-stock alert (the webhook low-stock alert, which
 * acts on the same stock drops, stays unpublished: HELD_IN_DEMO). Ctrl-C stops everything.
 *
 * Env: N8N_VERSION (default the tested 2.x version, test/host/tested-n8n.json; its 1.x version installs beside it on
 * first use), N8N_PORT (5678), SANDBOX_PORT (4010), DEMO_OWNER_EMAIL, DEMO_OWNER_PASSWORD, DEMO_USER_FOLDER (keep
 * n8n's data there between runs; default: a fresh temporary folder, deleted on exit; n8n cannot go back to an older
 * version's database, so keep one folder per n8n version).
 */
import { DEMO_SANDBOX_SEED, importExamples } from '../test/host/demoWorkflows';
import { N8N_VERSION } from '../test/host/install';
import { assertPortFree } from '../test/host/ports';
import { stopOnSignals } from '../test/host/processes';
import { startStack, type Stack } from '../test/host/stack';
import { WAREHOUSES } from '../sandbox/stock';

const DEFAULTS = { N8N_PORT: '5678', SANDBOX_PORT: '4010', DEMO_OWNER_EMAIL: 'demo@example.com', DEMO_OWNER_PASSWORD: 'ErpDemo-2026' };
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
	say(`settings: N8N_VERSION=${N8N_VERSION} ${(Object.keys(DEFAULTS) as Setting[]).map((name) => `${name}=${name.includes('PASSWORD') ? '…' : setting(name)}`).join(' ')}`);
	stack = await startStack({
		n8nPort,
		owner,
		userFolder: process.env.DEMO_USER_FOLDER || undefined,
		sandbox: { port: sandboxPort, seed: DEMO_SANDBOX_SEED },
		log: (line) => say(`… ${line}`),
	});
	const imported = await importExamples(stack);

	const { n8n, sandbox, install } = stack;
	say();
	say(`n8n editor   ${n8n.baseUrl}   (n8n ${install.version} on Node ${install.nodeVersion})`);
	say(`login        ${owner.email} / ${owner.password}${process.env.DEMO_OWNER_PASSWORD ? '' : '   (DEMO_OWNER_EMAIL, DEMO_OWNER_PASSWORD)'}`);
	say(`sandbox ERP  ${sandbox.baseUrl}   token ${sandbox.token} (credential "ERP API")`);
	say('workflows');
	for (const { name, events, held } of imported) {
		const startedBy = events.includes('polling') ? 'polls the ERP every minute (no public URL needed)' : `ERP events: ${events.join(', ')}`;
		const why = held ?? 'open it and click Execute workflow';
		say(`  ${events.length ? `published    ${name}  ← ${startedBy}` : `unpublished  ${name}  (${why})`}`);
	}
	say('send an event from the ERP, then look at Executions in the editor:');
	say(`  curl -s -X POST ${sandbox.url}/__sandbox/events -H 'content-type: application/json' -d '{"event":"invoice.overdue"}'`);
	say("or empty product 1's warehouses (the polling low-stock alert reports it within a minute, one purchase request):");
	const warehouses = WAREHOUSES.map((w) => w.id).join(' ');
	say(
		`  for w in ${warehouses}; do curl -s -X PUT ${sandbox.url}/__sandbox/stock -H 'content-type: application/json' -d '{"product_id":1,"warehouse_id":'$w',"quantity":0}'; done`,
	);
	say(`n8n log      ${n8n.logFile}`);
	say('Ctrl-C stops everything.');
}

main().catch(async (error: unknown) => {
	process.stderr.write(`\nnpm start failed: ${error instanceof Error ? error.message : String(error)}\n`);
	await stack?.stop();
	process.exit(1);
});
