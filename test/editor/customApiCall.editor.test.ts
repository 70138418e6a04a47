import { erpNode } from '../../tooling/host/workflows';
import { manualTrigger, openNewWorkflow, useEditor } from './support/session';
import { dropdownOptions, errorMarks, expandCategory, listedActions, ndv, openEntry, openNode, pickAction, searchNodePanel, visibleLabels } from './support/page';

// Custom API Call as a user meets it: once in the node panel's ERP entry and once in the Resource list, although n8n
// adds a "Custom API Call" of its own to some nodes (custom/CustomApiCall.resource.ts says when).

const editor = useEditor();

/** A new workflow, the node panel searched for "ERP", its ERP entry opened on its actions. */
async function openErpActions(name: string): Promise<void> {
	await openNewWorkflow(editor, name, [manualTrigger()]);
	await searchNodePanel(editor.page, 'ERP');
	await openEntry(editor.page, 'ERP');
	await expandCategory(editor.page, 'Actions', 'erp');
}

describe('Custom API Call in the editor', () => {
	it('the node panel\'s "ERP" lists it once, as the action "Make a custom API call", without n8n\'s own hint beside it', async () => {
		const { page } = editor;
		await openErpActions('editor: custom API call panel');

		expect((await listedActions(page, 'erp')).filter((action) => /custom API call/i.test(action))).toEqual(['Make a custom API call']);
		const text = await page.getByTestId('node-creator').innerText();
		expect(text.match(/custom API call actions/gi)).toHaveLength(1);
		// n8n's own entry would show as "Didn't find the right event? Make a custom ERP API call" below the actions.
		expect(text).not.toMatch(/custom ERP API call|didn't find the right/i);
	});

	it('picking it opens the node on Resource Custom API Call, which the Resource list holds once, with Method, Path and Return All', async () => {
		const { page } = editor;
		await openErpActions('editor: custom API call resource');
		await pickAction(page, 'Make a custom API call');
		const labels = ['Resource', 'Operation', 'Method', 'Path', 'Query Parameters', 'Return All', 'Limit'];
		expect(await visibleLabels(page, labels)).toEqual(expect.arrayContaining(labels));

		const resource = ndv(page).locator('[data-test-id^="parameter-input-resource"]').first();
		expect(await resource.locator('input').first().inputValue()).toBe('Custom API Call');
		await resource.click();
		const options = await dropdownOptions(page);
		expect(options).toEqual(expect.arrayContaining(['Contact', 'Employee', 'Invoice', 'Product']));
		expect(options.filter((option) => /custom API call/i.test(option))).toEqual(['Custom API Call']);
	});

	it('a POST shows Body and Key Field, not Return All, and opens with no error mark', async () => {
		const parameters = { resource: 'customApiCall', operation: 'call', method: 'POST', path: '/orders' };
		await openNewWorkflow(editor, 'editor: custom API call POST', [manualTrigger(), erpNode(parameters, editor.ctx.credential, 'Create Order')]);
		await openNode(editor.page, 'Create Order');

		const labels = await visibleLabels(editor.page, ['Body', 'Key Field']);
		expect(labels).toEqual(expect.arrayContaining(['Method', 'Path', 'Query Parameters', 'Body', 'Key Field']));
		expect(labels).not.toContain('Return All');
		expect(await errorMarks(editor.page)).toEqual([]);
	});
});
