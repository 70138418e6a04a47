import { manualTrigger, openNewWorkflow, openNodeName, useEditor } from './support/session';
import { closeNode, errorMarks, expandCategory, markedParameters, openEntry, openNode, pickAction, searchNodePanel, visibleLabels } from './support/page';

const editor = useEditor();

/** Adds an ERP action after the Manual Trigger through the node panel, as a user does; n8n opens the new node. */
async function addErpAction(action: string): Promise<void> {
	await openNewWorkflow(editor, 'editor: add an ERP action', [manualTrigger()]);
	await searchNodePanel(editor.page, 'ERP');
	await openEntry(editor.page, 'ERP');
	await expandCategory(editor.page, 'Actions', 'erp');
	await pickAction(editor.page, action);
}

// n8n 2.41 marks a required parameter (its parameter-issues sign) once a node is opened again, not on a fresh one.
describe.each([
	{ action: 'Create a contact', labels: ['Resource', 'Operation', 'Fields of the contact', 'first_name', 'last_name', 'email', 'custom_fields'], required: [] },
	{ action: 'Create an invoice', labels: ['Resource', 'Operation', 'Contact', 'Line Items', 'Additional Fields'], required: ['Contact'] },
	{ action: 'Get the stock of a product', labels: ['Resource', 'Operation', 'Product'], required: ['Product'] },
])('the action "$action" from the node panel', ({ action, labels, required }) => {
	it(`opens with its parameters (${labels.join(', ')}) and, opened again, marks the required ones (${required.join(', ') || 'none'})`, async () => {
		await addErpAction(action);
		expect(await visibleLabels(editor.page, labels)).toEqual(expect.arrayContaining(labels));
		const name = await openNodeName(editor.page);
		await closeNode(editor.page);
		await openNode(editor.page, name);
		expect(await markedParameters(editor.page)).toEqual(expect.arrayContaining(required));
	});
});

describe('Create contact, a fresh node', () => {
	it('shows no error mark in its panel (the empty custom_fields JSON editor included)', async () => {
		await addErpAction('Create a contact');
		expect(await errorMarks(editor.page)).toEqual([]);
	});
});
