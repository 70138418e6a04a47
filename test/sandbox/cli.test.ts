import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

import { parseArgs } from '../../sandbox/cli';

const CLI = path.resolve(__dirname, '../../.build/sandbox/cli.js');

/** Every CLI process a test starts; afterEach stops those still running, whether the test passed or not. */
const children: ChildProcess[] = [];

/** Starts the compiled CLI (`npm test` compiles it first, as `npm run sandbox` does). */
function spawnCli(args: string[]): ChildProcess {
	if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build:tools (npm test runs it first)`);
	const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
	children.push(child);
	return child;
}

/** Waits for the line with the CLI's /api/v1 URL; rejects when the CLI exits first or prints none within 10 s. */
function urlLine(child: ChildProcess): Promise<string> {
	return new Promise((resolve, reject) => {
		let output = '';
		const timer = setTimeout(() => reject(new Error(`no URL line within 10 s; it printed: ${output}`)), 10_000);
		const onData = (chunk: Buffer) => {
			output += chunk.toString();
			const match = /http:\/\/127\.0\.0\.1:\d+\/api\/v1/.exec(output);
			if (match) {
				clearTimeout(timer);
				resolve(match[0]);
			}
		};
		child.stdout?.on('data', onData);
		child.stderr?.on('data', onData);
		child.once('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`the CLI exited (${code}) before listening; it printed: ${output}`));
		});
	});
}

const exited = (child: ChildProcess): Promise<number | null> =>
	child.exitCode !== null || child.signalCode !== null
		? Promise.resolve(child.exitCode)
		: new Promise((resolve) => child.once('exit', (code) => resolve(code)));

afterEach(async () => {
	for (const child of children.splice(0)) {
		child.kill('SIGKILL');
		await exited(child);
	}
});

describe('sandbox CLI flags', () => {
	it('defaults to port 4010 and nothing else', () => {
		expect(parseArgs([])).toEqual({ port: 4010 });
	});

	it('reads every documented flag', () => {
		expect(
			parseArgs([
				'--port', '5000', '--host', '0.0.0.0', '--token', 't1', '--readonly-token', 't2',
				'--seed', '7', '--seed-contacts', '100', '--seed-invoices', '50', '--seed-products', '20', '--seed-employees', '10',
				'--rate-limit', '100/1000', '--overdue-sweep-ms', '0', '--webhook-retry-delays', '10,20,40',
			]),
		).toEqual({
			port: 5000,
			host: '0.0.0.0',
			token: 't1',
			readOnlyToken: 't2',
			seed: { seed: 7, contacts: 100, invoices: 50, products: 20, employees: 10 },
			rateLimit: { limit: 100, windowMs: 1000 },
			overdueSweepMs: 0,
			webhookRetryDelaysMs: [10, 20, 40],
		});
	});

	it('reads --variant, comma-separated or repeated', () => {
		expect(parseArgs(['--variant', 'strict-paging,no-total', '--variant', 'replace-put']).variants).toEqual(['strict-paging', 'no-total', 'replace-put']);
	});

	it.each([[['--variant', 'sap']], [['--variant']], [['--variant', 'small-pages,strict-paging']]])('refuses %j', (argv) => {
		expect(() => parseArgs(argv)).toThrow(/variant/);
	});

	it('turns the rate limit off', () => {
		expect(parseArgs(['--rate-limit', 'off']).rateLimit).toBeNull();
	});

	it.each([[['--port', 'abc']], [['--port']], [['--verbose']], [['--rate-limit', '100']], [['--token']]])('refuses %j', (argv) => {
		expect(() => parseArgs(argv)).toThrow();
	});
});

describe('sandbox CLI as a process', () => {
	it('prints its /api/v1 URL once it accepts requests, serves the API with the token it was given, stops on SIGTERM', async () => {
		const child = spawnCli(['--port', '0', '--token', 'cli-test-token', '--seed-contacts', '3']);
		const baseUrl = await urlLine(child);
		expect(baseUrl).not.toMatch(/:0\//);
		const ok = await fetch(`${baseUrl}/contacts`, { headers: { Authorization: 'Bearer cli-test-token' } });
		expect(ok.status).toBe(200);
		const body = (await ok.json()) as { success: boolean; data: unknown[]; meta: { total: number } };
		expect(body.success).toBe(true);
		expect(body.data).toHaveLength(3);
		expect(body.meta.total).toBe(3);
		const anonymous = await fetch(`${baseUrl}/contacts`);
		expect(anonymous.status).toBe(401);
		expect(await anonymous.json()).toEqual(expect.objectContaining({ success: false, error: expect.objectContaining({ code: 'unauthorized' }) }));
		// After the requests, not straight after the URL line: the CLI installs its signal handlers only after printing
		// its banner, so a SIGTERM sent the moment the URL appears can still end it by the default action (no exit code).
		child.kill('SIGTERM');
		expect(await exited(child)).toBe(0);
	});

	it('serves the variants it was started with, and names them', async () => {
		const child = spawnCli(['--port', '0', '--variant', 'strict-paging,no-total']);
		let output = '';
		child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const baseUrl = await urlLine(child);
		const headers = { Authorization: 'Bearer sandbox-token' };
		const refused = await fetch(`${baseUrl}/contacts?per_page=51`, { headers });
		expect(refused.status).toBe(422);
		expect(((await refused.json()) as { error: { fields: object } }).error.fields).toEqual({ per_page: ['must be at most 50'] });
		const page = (await (await fetch(`${baseUrl}/contacts`, { headers })).json()) as { meta: object };
		expect(page.meta).toEqual({ page: 1, per_page: 25 });
		expect(output).toMatch(/variants: strict-paging, no-total/);
	});

	it('refuses an unknown flag with its usage and exit code 2', async () => {
		const failed = spawnCli(['--verbose']);
		let stderr = '';
		failed.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		expect(await exited(failed)).toBe(2);
		expect(stderr).toMatch(/Unknown option --verbose[\s\S]*Usage: npm run sandbox/);
	});
});
