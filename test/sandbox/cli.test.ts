import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

import { parseArgs } from '../../sandbox/cli';

/** Starts the compiled CLI (`npm test` compiles it first, as `npm run sandbox` does) and waits for its URL line. */
function startCli(args: string[]): Promise<{ child: ChildProcess; baseUrl: string }> {
	const child = spawn(process.execPath, [path.resolve(__dirname, '../../.build/sandbox/cli.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
	return new Promise((resolve, reject) => {
		let output = '';
		const timer = setTimeout(() => reject(new Error(`no URL line within 10 s; it printed: ${output}`)), 10_000);
		const onData = (chunk: Buffer) => {
			output += chunk.toString();
			const match = /http:\/\/127\.0\.0\.1:\d+\/api\/v1/.exec(output);
			if (match) {
				clearTimeout(timer);
				resolve({ child, baseUrl: match[0] });
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

	it('turns the rate limit off', () => {
		expect(parseArgs(['--rate-limit', 'off']).rateLimit).toBeNull();
	});

	it.each([[['--port', 'abc']], [['--port']], [['--verbose']], [['--rate-limit', '100']], [['--token']]])('refuses %j', (argv) => {
		expect(() => parseArgs(argv)).toThrow();
	});
});

describe('sandbox CLI as a process', () => {
	let child: ChildProcess | undefined;
	afterEach(() => {
		child?.kill();
		child = undefined;
	});

	it('prints its /api/v1 URL once it accepts requests, and serves the API with the token it was given', async () => {
		const started = await startCli(['--port', '0', '--token', 'cli-test-token', '--seed-contacts', '3']);
		child = started.child;
		const ok = await fetch(`${started.baseUrl}/contacts`, { headers: { Authorization: 'Bearer cli-test-token' } });
		expect(ok.status).toBe(200);
		const body = (await ok.json()) as { success: boolean; data: unknown[]; meta: { total: number } };
		expect(body.success).toBe(true);
		expect(body.data).toHaveLength(3);
		expect(body.meta.total).toBe(3);
		const anonymous = await fetch(`${started.baseUrl}/contacts`);
		expect(anonymous.status).toBe(401);
	});

	it('refuses an unknown flag with its usage and exit code 2', async () => {
		const failed = spawn(process.execPath, [path.resolve(__dirname, '../../.build/sandbox/cli.js'), '--verbose'], { stdio: ['ignore', 'pipe', 'pipe'] });
		let stderr = '';
		failed.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const code = await new Promise((resolve) => failed.once('exit', resolve));
		expect(code).toBe(2);
		expect(stderr).toMatch(/Unknown option --verbose[\s\S]*Usage: npm run sandbox/);
	});
});
