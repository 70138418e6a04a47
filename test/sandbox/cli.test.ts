import { parseArgs } from '../../sandbox/cli';

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
