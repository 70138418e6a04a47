import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Expression } from 'n8n-workflow';

/**
 * Setup for running n8n-core in a test file. Imported first by every harness module, so it runs before n8n-core
 * reads its configuration (jest loads modules afresh for each test file).
 *
 * n8n-core writes `<N8N_USER_FOLDER>/.n8n/config` (its encryption key) the first time a node runs; a throw-away
 * folder, removed after the file's tests, keeps that out of the developer's home and their own n8n's settings.
 */
const userFolder = mkdtempSync(join(tmpdir(), 'n8n-harness-'));
const removeUserFolder = () => rmSync(userFolder, { recursive: true, force: true });
// Outside jest (the bench runs the poll harness too) there is no afterAll: remove it when the process ends.
const jestAfterAll = (globalThis as { afterAll?: (fn: () => void) => void }).afterAll;
if (typeof jestAfterAll === 'function') jestAfterAll(removeUserFolder);
else process.once('exit', removeUserFolder);
process.env.N8N_USER_FOLDER = userFolder;
process.env.N8N_ENCRYPTION_KEY = 'n8n-harness-encryption-key';
// n8n's error reporter logs every failing node with its stack; tests assert on the errors instead.
process.env.N8N_LOG_LEVEL ??= 'silent';

export type ExpressionEngine = 'quickjs' | 'vm' | 'legacy';

/**
 * n8n 2.41 evaluates expressions with its `vm` engine by default: the `@n8n/expression-runtime` bundle inside an
 * isolated-vm isolate. isolated-vm is a native module that does not build on Node 20. The `quickjs` engine runs
 * the same bundle in a WebAssembly isolate and works on Node 20, but n8n loads both engines with a dynamic
 * `import()`, which jest only allows with `NODE_OPTIONS=--experimental-vm-modules`. So the harness defaults to
 * `legacy`, n8n's in-process evaluator (same tournament parser, sandbox hooks and extensions); set
 * `N8N_EXPRESSION_ENGINE=quickjs` together with that NODE_OPTIONS flag to run the production runtime bundle.
 */
export const expressionEngine: ExpressionEngine = readEngine(process.env.N8N_EXPRESSION_ENGINE);

function readEngine(value: string | undefined): ExpressionEngine {
	if (value === undefined || value === '') return 'legacy';
	if (value === 'quickjs' || value === 'vm' || value === 'legacy') return value;
	throw new Error(`N8N_EXPRESSION_ENGINE must be quickjs, vm or legacy, not "${value}"`);
}

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
