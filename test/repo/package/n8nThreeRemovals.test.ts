/**
 * Nothing this package ships or offers to import uses what n8n 3.0 removes (n8n's "n8n 3.0 breaking changes": the
 * `$getPairedItem` and the Code node's `$evaluateExpression()` helpers, the legacy nodes, the Execute Workflow
 * node's "Run once for each item" mode, version 1 of the AI Agent node): the compiled dist/ and the example
 * workflows of examples/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from './shipped';

const REMOVED_HELPERS = ['$getPairedItem', '$evaluateExpression'];
const REMOVED_NODE_TYPES = [
	'n8n-nodes-base.function',
	'n8n-nodes-base.functionItem',
	'n8n-nodes-base.itemLists',
	'n8n-nodes-base.aiTransform',
	'@n8n/n8n-nodes-langchain.code',
];

interface ExampleNode {
	type: string;
	typeVersion: number;
	parameters?: Record<string, unknown>;
}

const filesUnder = (dir: string): string[] =>
	readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
	);
const distJs = filesUnder(path.join(ROOT, 'dist')).filter((file) => file.endsWith('.js'));
const exampleFiles = readdirSync(path.join(ROOT, 'examples')).filter((file) => file.endsWith('.json'));
const exampleNodes = exampleFiles.flatMap((file) =>
	(JSON.parse(readFileSync(path.join(ROOT, 'examples', file), 'utf8')) as { nodes: ExampleNode[] }).nodes.map((node) => ({ file, ...node })),
);
const relative = (file: string) => path.relative(ROOT, file);

describe('what n8n 3.0 removes', () => {
	it('reads the shipped JavaScript and the example workflows', () => {
		expect(distJs.length).toBeGreaterThan(10);
		expect(exampleNodes.length).toBeGreaterThan(exampleFiles.length);
	});

	it.each(REMOVED_HELPERS)('no shipped file and no example calls %s', (helper) => {
		const texts = [...distJs, ...exampleFiles.map((file) => path.join(ROOT, 'examples', file))];
		expect(texts.filter((file) => readFileSync(file, 'utf8').includes(helper)).map(relative)).toEqual([]);
	});

	it('no example uses a removed node, the AI Agent version 1, or Execute Workflow once for each item', () => {
		const removed = exampleNodes.filter(
			(node) =>
				REMOVED_NODE_TYPES.includes(node.type) ||
				(node.type === '@n8n/n8n-nodes-langchain.agent' && node.typeVersion < 1.1) ||
				(node.type === 'n8n-nodes-base.executeWorkflow' && node.parameters?.mode === 'each'),
		);
		expect(removed.map((node) => `${node.file}: ${node.type} ${node.typeVersion}`)).toEqual([]);
	});
});
