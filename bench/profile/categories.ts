/** V8's .cpuprofile, as the inspector's Profiler.stop answers it. */
export interface CpuProfile {
	nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber?: number }; children?: number[] }>;
	samples: number[];
	/** Microseconds since the previous sample. */
	timeDeltas: number[];
}

type Frame = CpuProfile['nodes'][number]['callFrame'];

/** The package's files as n8n loads them from its user folder (n8n's own install may sit in a folder named after the
 * package, ~/.cache/n8n-nodes-erp: a bare name would claim n8n's frames too). */
export const NODE_PACKAGE = /\/node_modules\/n8n-nodes-erp\//;
/** bench/floor's node, installed the same way. */
export const FLOOR_PACKAGE = /\/node_modules\/n8n-nodes-erp-floor\//;

/**
 * Where n8n's main process spends its time, in the order a sample is claimed: a sample belongs to the first
 * category that any frame of its stack matches (so the credential's expression counts as the credential), or,
 * for `leafOnly` categories, the frame that was running. V8 shows built-ins such as JSON.parse as time of their
 * caller.
 */
export const CATEGORIES = [
	{
		name: 'credential',
		label: "the credential's `authenticate` (a generic header would be an expression evaluated here on every request)",
		matches: (f: Frame) => f.functionName === 'authenticate' && /credentials-helper|\.credentials\.js/.test(f.url),
	},
	{
		name: 'http',
		label: "n8n's HTTP stack: its request helper, axios (and the JSON parsing of the answer in it), follow-redirects, proxy resolution, a new agent and connection per request",
		matches: (f: Frame) => /\/(axios|follow-redirects|proxy-from-env|agent-base|https?-proxy-agent)\/|request-helper-functions|^node:(_http|http|https|net|tls|dns)/.test(f.url),
	},
	{
		name: 'expressions',
		label: "parameter expressions: n8n's expression engine and its data proxy",
		matches: (f: Frame) => /\/(isolated-vm|luxon|@n8n\/tournament|@n8n\/expression-runtime)\/|expression|workflow-data-proxy/i.test(f.url),
	},
	{ name: 'node', label: "the node's own code", leafOnly: true, matches: (f: Frame) => NODE_PACKAGE.test(f.url) },
	{ name: 'gc', label: 'garbage collection', matches: (f: Frame) => f.functionName === '(garbage collector)' },
	{ name: 'rest', label: "the rest: n8n's execution engine and the helpers the node calls, the webhook, Split Out, Summarize", matches: () => true },
] as const;

export type Category = (typeof CATEGORIES)[number]['name'];

/** A way to claim a sample, as in CATEGORIES. */
export interface CategorySpec {
	name: string;
	label: string;
	leafOnly?: boolean;
	matches(frame: Frame): boolean;
}

const inNode = (f: Frame) => NODE_PACKAGE.test(f.url);
const inFloor = (f: Frame) => FLOOR_PACKAGE.test(f.url);
const [credential, http, expressions, , gc, rest] = CATEGORIES;

/**
 * The ERP node beside n8n's floor against a remote ERP: CATEGORIES with the parameters read through n8n's
 * getNodeParameter (less their expressions) apart, and the floor's own code beside the node's.
 */
export const REMOTE_CATEGORIES: readonly CategorySpec[] = [
	credential,
	http,
	expressions,
	{
		name: 'parameters',
		label: "n8n's getNodeParameter, less expressions: the value copied and cleaned, resource locators, the check against the node's description",
		matches: (f: Frame) => /getNodeParameter/.test(f.functionName) && /n8n-core/.test(f.url),
	},
	{ name: 'node', label: "the node's own code", leafOnly: true, matches: inNode },
	{ name: 'floor', label: "the floor's own code", leafOnly: true, matches: inFloor },
	gc,
	rest,
];

/** The stack of every sample, leaf first, and the time it stands for (idle left out). */
function stacks(profile: CpuProfile): Array<{ leaf: number; stack: Frame[]; ms: number }> {
	const parent = new Map<number, number>();
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const known = new Map<number, Frame[]>();
	const stackOf = (leaf: number) => {
		let stack = known.get(leaf);
		if (!stack) {
			stack = [];
			for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) stack.push(byId.get(id)!.callFrame);
			known.set(leaf, stack);
		}
		return stack;
	};
	// A sample stands for the time until the next one.
	return profile.samples
		.map((leaf, i) => ({ leaf, stack: stackOf(leaf), ms: (profile.timeDeltas[i + 1] ?? 0) / 1000 }))
		.filter(({ stack }) => stack[0].functionName !== '(idle)');
}

/** Milliseconds of CPU per category of `categories` (idle time left out). */
export function categoriseBy(profile: CpuProfile, categories: readonly CategorySpec[]): Record<string, number> {
	const totals: Record<string, number> = Object.fromEntries(categories.map((category) => [category.name, 0]));
	const claimed = new Map<number, CategorySpec | undefined>();
	const claim = (stack: Frame[]) =>
		categories.find((category) => (category.leafOnly ? category.matches(stack[0]) : stack.some((frame) => category.matches(frame))));
	for (const { leaf, stack, ms } of stacks(profile)) {
		if (!claimed.has(leaf)) claimed.set(leaf, claim(stack));
		const category = claimed.get(leaf);
		if (category) totals[category.name] += ms;
	}
	return totals;
}

/** Milliseconds of CPU under each function of the package at `url` (a sample counts once per function on its stack),
 * the `top` most, as `function (file:line)`. */
export function functionsOf(profile: CpuProfile, url: RegExp, top: number): Array<{ fn: string; ms: number }> {
	const totals = new Map<string, number>();
	for (const { stack, ms } of stacks(profile)) {
		const names = new Set(stack.filter((frame) => url.test(frame.url)).map((frame) => `${frame.functionName || '(anonymous)'} (${frame.url.split('/').slice(-2).join('/')}:${(frame.lineNumber ?? -1) + 1})`));
		for (const name of names) totals.set(name, (totals.get(name) ?? 0) + ms);
	}
	return [...totals].sort((a, b) => b[1] - a[1]).slice(0, top).map(([fn, ms]) => ({ fn, ms }));
}

/** Milliseconds of CPU per category (idle time left out). */
export function categorise(profile: CpuProfile): Record<Category, number> {
	return categoriseBy(profile, CATEGORIES) as Record<Category, number>;
}
