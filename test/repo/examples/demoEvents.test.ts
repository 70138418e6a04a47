/**
 * The workflows `npm start` publishes never act on the same ERP event: two published low-stock alerts would send
 * two purchase requests for one stock drop. An example held back (HELD_IN_DEMO) must say so in docs/examples.md.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { HELD_IN_DEMO } from '../../host/demoWorkflows';
import { readExamples } from '../../host/examples';
import { REPO_ROOT } from '../../host/paths';
import { ERP_POLLING_TRIGGER_TYPE, ERP_TRIGGER_TYPE } from '../../host/workflows';
import type { WorkflowNode } from '../../host/types';

/** The event a polling watch reports, for the watches the examples use (a new one must be added here). */
function pollingEvent(node: WorkflowNode): string {
	const { triggerOn } = node.parameters as { triggerOn?: string };
	if (triggerOn === 'product:lowStock') return 'product.low_stock';
	throw new Error(`the example's polling watch ${String(triggerOn)} is not known to this test`);
}

function eventsOf(nodes: WorkflowNode[]): string[] {
	return nodes.flatMap((node) => {
		if (node.type === ERP_TRIGGER_TYPE) return (node.parameters.events ?? []) as string[];
		if (node.type === ERP_POLLING_TRIGGER_TYPE) return [pollingEvent(node)];
		return [];
	});
}

const examples = readExamples();

it('publishes examples in the demo that act on distinct events, and holds back only real examples', () => {
	const published = examples.filter(({ file }) => !(file in HELD_IN_DEMO)).map(({ file, workflow }) => ({ file, events: eventsOf(workflow.nodes) }));
	const all = published.flatMap(({ events }) => events);
	expect(all.length).toBeGreaterThan(1);
	expect(new Set(all).size).toBe(all.length);
	expect(Object.keys(HELD_IN_DEMO).every((file) => examples.some((example) => example.file === file))).toBe(true);
});

it('names every example held back in docs/examples.md, beside the one it would double', () => {
	const readme = readFileSync(path.join(REPO_ROOT, 'docs', 'examples.md'), 'utf8');
	for (const file of Object.keys(HELD_IN_DEMO)) {
		const row = readme.split('\n').find((line) => line.startsWith(`| \`${file}\``));
		expect(row).toMatch(/`npm start` imports this one unpublished/);
	}
});
