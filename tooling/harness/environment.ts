import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Expression } from 'n8n-workflow';

/**
 * Imported first by every harness module, before n8n-core reads its configuration and writes its encryption key
 * into `<N8N_USER_FOLDER>/.n8n/config`: a throw-away folder (removed after the test file, or at exit), not the developer's.
 */
const userFolder = mkdtempSync(join(tmpdir(), 'n8n-harness-'));
const removeUserFolder = () => rmSync(userFolder, { recursive: true, force: true });
const jestAfterAll = (globalThis as { afterAll?: (fn: () => void) => void }).afterAll;
if (jestAfterAll) jestAfterAll(removeUserFolder);
else process.once('exit', removeUserFolder);
process.env.N8N_USER_FOLDER = userFolder;
process.env.N8N_ENCRYPTION_KEY = 'n8n-harness-encryption-key';
// n8n's error reporter logs every failing node with its stack; tests assert on the errors instead.
process.env.N8N_LOG_LEVEL ??= 'silent';

/**
 * n8n 2.41's default `vm` engine needs isolated-vm, which does not build on Node 20; its `quickjs` engine runs the same
 * bundle through a dynamic `import()`, which jest allows only with `NODE_OPTIONS=--experimental-vm-modules`. So the
 * default is `legacy`, n8n's in-process evaluator.
 */
const ENGINES = ['legacy', 'quickjs', 'vm'] as const;
const expressionEngine = (process.env.N8N_EXPRESSION_ENGINE || 'legacy') as (typeof ENGINES)[number];
if (!ENGINES.includes(expressionEngine)) throw new Error(`N8N_EXPRESSION_ENGINE must be ${ENGINES.join(', ')}, not "${expressionEngine}"`);

let engineReady: Promise<void> | undefined;

/** Starts the expression engine once per process (per jest test file), with n8n's default pool settings. */
export async function ensureExpressionEngine(): Promise<void> {
	engineReady ??= Expression.initExpressionEngine({
		engine: expressionEngine,
		poolSize: 1,
		maxCodeCacheSize: 1024,
		bridgeTimeout: 5000,
		bridgeMemoryLimit: 128,
	});
	await engineReady;
}
