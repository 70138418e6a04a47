import { ERP_NODE_TYPE, erpNode, node } from '../../tooling/host/workflows';
import { manualTrigger, openNewWorkflow, useEditor } from './support/session';
import { errorMarks, ndv, openNode, visibleLabels } from './support/page';

const editor = useEditor();

/** An "ERP Tool" node as an agent's or MCP Server Trigger's tool, alone on the canvas. */
const erpToolNode = (name: string, parameters: Record<string, unknown>) =>
	node(name, `${ERP_NODE_TYPE}Tool`, 1, parameters, { credentials: { erpApi: { id: editor.ctx.credential.id, name: editor.ctx.credential.name } } });

/** The text in the panel's text areas (the Tool Description is one). */
const textAreas = async () => await ndv(editor.page).locator('textarea').evaluateAll((areas) => areas.map((area) => (area as unknown as { value: string }).value));

describe('the ERP Tool panel', () => {
	it('Get Many: the operation’s own Tool Description, a Limit without Return All, Output instead of Simplify, and no error mark', async () => {
		await openNewWorkflow(editor, 'editor: ERP Tool get many', [erpToolNode('Find contacts', { resource: 'contact', operation: 'getAll' })]);
		await openNode(editor.page, 'Find contacts');

		const labels = await visibleLabels(editor.page, ['Tool Description', 'Limit', 'Filters', 'Output']);
		expect(labels).toEqual(expect.arrayContaining(['Tool Description', 'Limit', 'Filters', 'Output']));
		expect(labels).not.toEqual(expect.arrayContaining(['Return All']));
		expect(labels).not.toContain('Simplify');
		expect(labels).not.toContain('Fields');
		expect((await textAreas()).some((text) => text.startsWith('Get many contacts in the ERP'))).toBe(true);
		expect(await errorMarks(editor.page)).toEqual([]);
	});

	it('Output › Selected Fields shows Fields; Create an invoice shows Lines (JSON) for the lines a model gives', async () => {
		await openNewWorkflow(editor, 'editor: ERP Tool selected fields', [erpToolNode('Get product', { resource: 'product', operation: 'get', output: 'selected' })]);
		await openNode(editor.page, 'Get product');
		expect(await visibleLabels(editor.page, ['Output', 'Fields'])).toEqual(expect.arrayContaining(['Tool Description', 'Product', 'Output', 'Fields']));

		await openNewWorkflow(editor, 'editor: ERP Tool create invoice', [erpToolNode('Create invoice', { resource: 'invoice', operation: 'create' })]);
		await openNode(editor.page, 'Create invoice');
		const labels = await visibleLabels(editor.page, ['Lines (JSON)']);
		expect(labels).toEqual(expect.arrayContaining(['Tool Description', 'Contact', 'Line Items', 'Lines (JSON)', 'Additional Fields']));
		expect((await textAreas()).some((text) => text.startsWith('Create an invoice in the ERP'))).toBe(true);
	});
});

describe('the ERP node panel, beside it', () => {
	it('Get Many: Return All and Simplify, and nothing of the tool', async () => {
		await openNewWorkflow(editor, 'editor: ERP get many', [manualTrigger(), erpNode({ resource: 'contact', operation: 'getAll' }, editor.ctx.credential, 'Get contacts')]);
		await openNode(editor.page, 'Get contacts');

		const labels = await visibleLabels(editor.page, ['Return All', 'Simplify']);
		expect(labels).toEqual(expect.arrayContaining(['Return All', 'Limit', 'Filters', 'Simplify']));
		expect(labels).not.toContain('Tool Description');
		expect(labels).not.toContain('Output');
	});
});
