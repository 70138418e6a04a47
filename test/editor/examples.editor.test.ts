import { openWorkflow } from '../host/editor';
import { readEditorContext } from './setup/context';
import { useEditor } from './support/editorSession';
import { closeNode, errorMarks, openNode } from './support/ndv';

const editor = useEditor();

// Toasts n8n shows when something is wrong on opening (a warning or an error).
const WARNING_TOASTS = '.el-notification--warning, .el-notification--error, .el-notification:has(.el-notification__icon.el-icon--warning)';

describe.each(readEditorContext().examples)('the example "$name", imported as npm start imports it', ({ workflowId }) => {
	it('opens without a warning or an issue badge, and every node opens without a parameter issue', async () => {
		const { page, ctx } = editor;
		await openWorkflow(page, ctx.n8nUrl, workflowId);
		expect(await page.locator(WARNING_TOASTS).allInnerTexts()).toEqual([]);
		expect(await page.locator('[data-test-id="canvas-node"]:has([data-test-id="node-issues"])').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-node-name')))).toEqual([]);

		const names = await page
			.locator('[data-test-id="canvas-node"]:not([data-node-type="n8n-nodes-base.stickyNote"])')
			.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-node-name') ?? ''));
		const marks: Record<string, string[]> = {};
		for (const name of names) {
			await openNode(page, name);
			const found = await errorMarks(page);
			if (found.length > 0) marks[name] = found;
			await closeNode(page);
		}
		expect(marks).toEqual({});
	});
});
