/**
 * The workflows `npm start` publishes never act on the same ERP event: two published low-stock alerts would send
 * two purchase requests for one stock drop. An example held back (HELD_IN_DEMO) must say so in docs/examples.md, and
 * on its own canvas: a sticky note naming the published example it would double.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { HELD_IN_DEMO } from '../../../tooling/host/demoWorkflows';
import { readExamples, type Example } from '../../../tooling/host/examples';
import { REPO_ROOT } from '../../../tooling/host/paths';
import { ERP_POLLING_TRIGGER_TYPE, ERP_TRIGGER_TYPE } from '../../../tooling/host/workflows';
import type { WorkflowNode } from '../../../tooling/host/types';

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

const STICKY_NOTE_TYPE = 'n8n-nodes-base.stickyNote';
const examples = readExamples();

/** The published example that acts on an event of a held-back one. */
function doubled(file: string): Example {
	const events = eventsOf(examples.find((example) => example.file === file)?.workflow.nodes ?? []);
	const twins = examples.filter((example) => !(example.file in HELD_IN_DEMO) && eventsOf(example.workflow.nodes).some((event) => events.includes(event)));
	expect(twins).toHaveLength(1);
	return twins[0];
}

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

it.each(Object.keys(HELD_IN_DEMO))('%s carries a sticky note naming the published example it would double, and what doubling costs', (file) => {
	const twin = doubled(file);
	const notes = (examples.find((example) => example.file === file)?.workflow.nodes ?? []).filter((node) => node.type === STICKY_NOTE_TYPE);
	const warning = notes.map((note) => String(note.parameters.content)).find((content) => content.includes(twin.workflow.name));
	expect(warning).toBeDefined();
	expect(warning).toContain(twin.file);
	expect(warning).toMatch(/every stock drop sends two purchase requests/);
});
