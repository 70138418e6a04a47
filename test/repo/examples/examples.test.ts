import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { INodeParameters, ResourceMapperField } from 'n8n-workflow';

import { ErpApi } from '../../../credentials/ErpApi.credentials';
import { Erp } from '../../../nodes/Erp/Erp.node';
import { runResourceMapping } from '../../../tooling/harness';
import { useTestSandbox } from '../../../tooling/harness/sandbox';
import { HELD_IN_DEMO, DEMO_SANDBOX } from '../../../tooling/host/demoWorkflows';
import { readExamples, type Example } from '../../../tooling/host/examples';
import { REPO_ROOT } from '../../../tooling/host/paths';
import type { WorkflowNode } from '../../../tooling/host/types';
import { ERP_POLLING_TRIGGER_TYPE, ERP_TRIGGER_TYPE } from '../../../tooling/host/workflows';

describe("the demo's examples", () => {
	/**
	 * The workflows `npm start` publishes never act on the same ERP event: two published low-stock alerts would send
	 * two purchase requests for one stock drop. An example held back (HELD_IN_DEMO) must say so in docs/examples.md, and
	 * on its own canvas: a sticky note naming the published example it would double.
	 */
	/** The event a polling watch reports, for the watches the examples use (a new one must be added here). */
	function pollingEvent(node: WorkflowNode): string {
		const { triggerOn, field, value } = node.parameters as { triggerOn?: string; field?: string; value?: string };
		if (triggerOn === 'product:lowStock') return 'product.low_stock';
		if (triggerOn === 'invoice:fieldValue' && field === 'status') return `invoice.${String(value)}`;
		throw new Error(`the example's polling watch ${String(triggerOn)} is not known to this test`);
	}

	/** The events a workflow acts on (one workflow's two triggers for one event act on it once: Remove Duplicates). */
	function eventsOf(nodes: WorkflowNode[]): string[] {
		const events = nodes.flatMap((node) => {
			if (node.type === ERP_TRIGGER_TYPE) return (node.parameters.events ?? []) as string[];
			if (node.type === ERP_POLLING_TRIGGER_TYPE) return [pollingEvent(node)];
			return [];
		});
		return [...new Set(events)];
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
});

describe('field mappers', () => {
	/**
	 * The field lists the examples store, against what the node's field mapper method returns now. n8n's editor asks
	 * the method again when it opens a node with a field mapper, and shows "Fields are outdated. Refresh to see the
	 * changes." when the stored list (`columns.schema`) differs from the answer in count or in any field's
	 * displayName, required, defaultMatch, display, canBeUsedToMatch or type. A user importing an example must not
	 * meet that warning, so each stored list equals the method's answer for the sandbox ERP with the demo's records.
	 */
	const ERP_NODE_TYPE = 'n8n-nodes-erp.erp';

	const mappers = readExamples().flatMap(({ file, workflow }) =>
		workflow.nodes
			// The ERP node and its Tool variant (an AI agent's or MCP server's tool) share the method.
			.filter((node) => [ERP_NODE_TYPE, `${ERP_NODE_TYPE}Tool`].includes(node.type) && node.parameters.columns !== undefined)
			.map((node) => ({ file, name: node.name, typeVersion: node.typeVersion, parameters: node.parameters as INodeParameters })),
	);

	const sandbox = useTestSandbox(DEMO_SANDBOX);

	it('some example has an ERP node with a field mapper', () => {
		expect(mappers.length).toBeGreaterThan(0);
	});

	describe.each(mappers)('$file, node "$name"', ({ parameters, typeVersion }) => {
		it('stores the field list the method returns for the sandbox ERP, so the editor shows no "Fields are outdated"', async () => {
			const { fields } = await runResourceMapping({
				nodeType: new Erp(),
				parameterName: 'columns',
				parameters,
				typeVersion,
				credentialType: new ErpApi(),
				credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
			});
			const stored = (parameters.columns as { schema: ResourceMapperField[] }).schema;
			expect(stored).toEqual(fields);
		});
	});
});
