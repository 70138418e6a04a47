import { DEFAULT_READONLY_TOKEN, DEFAULT_TOKEN, startSandbox, type SandboxOptions } from './server';
import { EXTENSION_NAMES, resolveExtensions } from './extensions/names';
import { resolveVariants, VARIANT_NAMES } from './variants';

const USAGE = `Usage: npm run sandbox -- [options]
  --port N                  port to listen on (default 4010)
  --host HOST               address to bind (default 127.0.0.1)
  --token T                 full-access API token (default ${DEFAULT_TOKEN})
  --readonly-token T        read-only API token (default ${DEFAULT_READONLY_TOKEN})
  --seed N                  PRNG seed for seeding (default 1)
  --seed-contacts N         seed N contacts at start (also --seed-invoices, --seed-products, --seed-employees,
                            and --seed-orders with the orders extension)
  --rate-limit LIMIT/MS     e.g. 600/60000 (the default), or "off"
  --overdue-sweep-ms MS     overdue check period, 0 = off (default 1000)
  --webhook-retry-delays L  comma-separated ms before each retry (default 1000,2000,4000)
  --variant A,B             behave like another ERP (see sandbox/README.md); one of:
                            ${VARIANT_NAMES.join(', ')}
  --extension A,B           also serve endpoints the API document does not list, as an ERP's extension
                            would: ${EXTENSION_NAMES.join(', ')}`;

const integer = (flag: string, value: string | undefined): number => {
	const n = Number(value);
	if (value === undefined || !Number.isInteger(n) || n < 0) throw new Error(`${flag} needs a non-negative integer`);
	return n;
};

/** Turns command-line flags into sandbox options; throws on an unknown flag or a bad value. */
export function parseArgs(argv: string[]): SandboxOptions & { port: number } {
	const options: SandboxOptions & { port: number } = { port: 4010 };
	const seed: NonNullable<SandboxOptions['seed']> = {};
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		const value = argv[i + 1];
		i++;
		switch (flag) {
			case '--port':
				options.port = integer(flag, value);
				break;
			case '--host':
			case '--token':
			case '--readonly-token':
				if (!value) throw new Error(`${flag} needs a value`);
				if (flag === '--host') options.host = value;
				else if (flag === '--token') options.token = value;
				else options.readOnlyToken = value;
				break;
			case '--seed':
				seed.seed = integer(flag, value);
				break;
			case '--seed-contacts':
			case '--seed-invoices':
			case '--seed-products':
			case '--seed-employees':
			case '--seed-orders':
				seed[flag.slice('--seed-'.length) as 'contacts' | 'invoices' | 'products' | 'employees' | 'orders'] = integer(flag, value);
				break;
			case '--rate-limit': {
				const match = /^(\d+)\/(\d+)$/.exec(value ?? '');
				if (value !== 'off' && !match) throw new Error('--rate-limit needs LIMIT/WINDOW_MS or off');
				options.rateLimit = match ? { limit: Number(match[1]), windowMs: Number(match[2]) } : null;
				break;
			}
			case '--overdue-sweep-ms':
				options.overdueSweepMs = integer(flag, value);
				break;
			case '--webhook-retry-delays':
				options.webhookRetryDelaysMs = (value ?? '').split(',').filter(Boolean).map((d) => integer(flag, d));
				break;
			case '--variant': {
				const names = [...(options.variants ?? []), ...(value ?? '').split(',').filter(Boolean)];
				if (names.length === 0) throw new Error('--variant needs one or more names, comma-separated');
				// Unknown names and variants that cannot be combined are refused here, with the usage.
				options.variants = resolveVariants(names).variants;
				break;
			}
			case '--extension': {
				const names = [...(options.extensions ?? []), ...(value ?? '').split(',').filter(Boolean)];
				if (names.length === 0) throw new Error('--extension needs one or more names, comma-separated');
				options.extensions = resolveExtensions(names);
				break;
			}
			default:
				throw new Error(`Unknown option ${flag}`);
		}
	}
	if (Object.keys(seed).length > 0) options.seed = seed;
	return options;
}

async function main(): Promise<void> {
	let options: ReturnType<typeof parseArgs>;
	try {
		options = parseArgs(process.argv.slice(2));
	} catch (error) {
		console.error(`${(error as Error).message}\n\n${USAGE}`);
		process.exit(2);
	}
	const sandbox = await startSandbox(options);
	// Before the URL line: whoever waits for it may stop the sandbox right away, and should get a clean exit.
	const stop = (signal: string) => {
		console.log(`\n${signal}: stopping the sandbox`);
		sandbox.close().then(() => process.exit(0), () => process.exit(1));
	};
	process.once('SIGINT', () => stop('SIGINT'));
	process.once('SIGTERM', () => stop('SIGTERM'));
	const seeded = Object.entries(options.seed ?? {}).filter(([name]) => name !== 'seed');
	console.log(`ERP sandbox listening: ${sandbox.baseUrl}`);
	console.log(`  token: ${sandbox.token}   read-only token: ${sandbox.readOnlyToken}`);
	console.log(`  admin: ${sandbox.url}/__sandbox (see sandbox/README.md)`);
	if (seeded.length > 0) console.log(`  seeded: ${seeded.map(([name, n]) => `${n} ${name}`).join(', ')}`);
	if (options.variants) console.log(`  variants: ${options.variants.join(', ')}`);
	if (options.extensions) console.log(`  extensions (not in the API document): ${options.extensions.join(', ')}`);
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error);
		process.exit(1);
	});
}
