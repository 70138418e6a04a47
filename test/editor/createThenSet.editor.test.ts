import { atLeast, waitForExecutions } from '../../tooling/host/executions';
import { erpNode, node } from '../../tooling/host/workflows';
import { manualTrigger, openNewWorkflow, useEditor } from './support/session';
import { openNode } from './support/page';

const editor = useEditor();

const contactFields = ['first_name', 'last_name', 'email'].map((id) => ({ id, displayName: id, required: false, defaultMatch: false, display: true, type: 'string' }));

describe('Manual Trigger → ERP Create contact → Set {{ $json.email }}, run from the editor', () => {
	it('shows the e-mail sent in the Set node\'s output, with one POST /contacts sent', async () => {
		const { page, n8n, sandbox, ctx } = editor;
		const email = `editor.${Date.now()}@example.com`;
		const create = erpNode(
			{ resource: 'contact', operation: 'create', columns: { mappingMode: 'defineBelow', value: { first_name: 'Ada', last_name: 'Editor', email }, matchingColumns: [], schema: contactFields } },
			ctx.credential,
			'Create Contact',
		);
		const set = node('Edit Fields', 'n8n-nodes-base.set', 3.4, {
			mode: 'manual',
			assignments: { assignments: [{ id: 'email', name: 'email', value: '={{ $json.email }}', type: 'string' }] },
			options: {},
		});
		const since = await sandbox.lastRequestSeq();
		const workflowId = await openNewWorkflow(editor, 'editor: create then set', [manualTrigger(), create, set]);

		await page.getByTestId('execute-workflow-button').click();
		await waitForExecutions(n8n, workflowId, atLeast(1));
		await openNode(page, 'Edit Fields');
		const output = page.getByTestId('ndv').getByTestId('output-panel');
		await output.getByTestId('radio-button-json').click();
		await output.getByText('email').first().waitFor();
		expect(await output.innerText()).toContain(email);

		const posts = (await sandbox.requests(since)).filter((r) => r.method === 'POST' && r.path === '/contacts');
		expect(posts.map((r) => r.body)).toEqual([expect.objectContaining({ email })]);
	});
});
