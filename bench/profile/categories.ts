/** V8's .cpuprofile, as the inspector's Profiler.stop answers it. */
export interface CpuProfile {
	nodes: Array<{ id: number; callFrame: { functionName: string; url: string }; children?: number[] }>;
	samples: number[];
	/** Microseconds since the previous sample. */
	timeDeltas: number[];
}

type Frame = CpuProfile['nodes'][number]['callFrame'];

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
	{ name: 'node', label: "the node's own code", leafOnly: true, matches: (f: Frame) => /\/n8n-nodes-erp\//.test(f.url) },
	{ name: 'gc', label: 'garbage collection', matches: (f: Frame) => f.functionName === '(garbage collector)' },
	{ name: 'rest', label: "the rest: n8n's execution engine and the helpers the node calls, the webhook, Split Out, Summarize", matches: () => true },
] as const;

export type Category = (typeof CATEGORIES)[number]['name'];

/** Milliseconds of CPU per category (idle time left out). */
export function categorise(profile: CpuProfile): Record<Category, number> {
	const parent = new Map<number, number>();
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const claimed = new Map<number, Category | undefined>();
	const categoryOf = (leaf: number): Category | undefined => {
		if (!claimed.has(leaf)) {
			const stack: Frame[] = [];
			for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) stack.push(byId.get(id)!.callFrame);
			const claims = (category: (typeof CATEGORIES)[number]) => ('leafOnly' in category ? category.matches(stack[0]) : stack.some(category.matches));
			claimed.set(leaf, stack[0].functionName === '(idle)' ? undefined : CATEGORIES.find(claims)?.name);
		}
		return claimed.get(leaf);
	};
	const totals = Object.fromEntries(CATEGORIES.map((category) => [category.name, 0])) as Record<Category, number>;
	profile.samples.forEach((leaf, i) => {
		const category = categoryOf(leaf);
		// A sample stands for the time until the next one.
		if (category) totals[category] += (profile.timeDeltas[i + 1] ?? 0) / 1000;
	});
	return totals;
}
