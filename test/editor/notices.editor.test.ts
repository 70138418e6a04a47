import { randomUUID } from 'node:crypto';

import type { INodeProperties } from 'n8n-workflow';

import { MAX_NOTICE_SENTENCES, MAX_TEXT_CHARS, OTHER_LINE_WORDS, sentences, shownText } from '../../tooling/host/nodeTexts';
import type { WorkflowNode } from '../../tooling/host/types';
import { ERP_NODE_TYPE, ERP_POLLING_TRIGGER_TYPE, ERP_TRIGGER_TYPE, node } from '../../tooling/host/workflows';
import { manualTrigger, openNewWorkflow, useEditor } from './support/session';
import { ndv, openNode } from './support/page';

const editor = useEditor();

/** The notices shown in the open panel, as the user reads them. */
const shownNotices = async (): Promise<string[]> => (await ndv(editor.page).locator('.notice').allInnerTexts()).map((text) => text.trim());

/** Parameters that make n8n show a notice: the first value each of its display conditions names (n8n's own `@…` aside). */
function showing(notice: INodeProperties): Record<string, unknown> {
	const conditions = Object.entries(notice.displayOptions?.show ?? {}).filter(([name]) => !name.startsWith('@'));
	return Object.fromEntries(conditions.map(([name, values]) => [name.replace(/^\//, ''), (values ?? [])[0]]));
}

/** Each of the three nodes, opened in the editor once per notice it has, with the parameters that show that notice. */
async function cases(): Promise<Array<{ type: string; notice: string; parameters: Record<string, unknown>; version: number }>> {
	const types = await editor.n8n.nodeTypes();
	return [ERP_NODE_TYPE, ERP_TRIGGER_TYPE, ERP_POLLING_TRIGGER_TYPE].flatMap((name) => {
		const type = types.find((t) => t.name === name);
		if (!type) throw new Error(`n8n does not list ${name}`);
		const version = Math.max(...[type.version].flat());
		return type.properties.filter((p) => p.type === 'notice').map((p) => ({ type: name, notice: shownText(p.displayName), parameters: showing(p), version }));
	});
}

describe('the notices of the three nodes, as opened in the editor (n8n 2.x)', () => {
	it(`are each shown, at most ${MAX_TEXT_CHARS} characters and ${MAX_NOTICE_SENTENCES} sentences, and the panels say neither "activate" nor "Listen for test event"`, async () => {
		const all = await cases();
		expect(all.map((c) => c.type)).toEqual(expect.arrayContaining([ERP_NODE_TYPE, ERP_TRIGGER_TYPE, ERP_POLLING_TRIGGER_TYPE]));
		const found: Record<string, string[]> = {};
		for (const [i, { type, notice, parameters, version }] of all.entries()) {
			const name = `Node ${i}`;
			const opened: WorkflowNode = node(name, type, version, parameters, { credentials: { erpApi: { id: editor.ctx.credential.id, name: editor.ctx.credential.name } }, webhookId: randomUUID() });
			await openNewWorkflow(editor, `editor: notices ${i}`, type === ERP_NODE_TYPE ? [manualTrigger(), opened] : [opened]);
			await openNode(editor.page, name);
			const shown = await shownNotices();
			expect(shown).toContain(notice);
			for (const text of shown) found[text] = sentences(text);
			expect(await ndv(editor.page).getByTestId('node-parameters').innerText()).not.toMatch(OTHER_LINE_WORDS);
		}
		const long = Object.keys(found).filter((text) => text.length > MAX_TEXT_CHARS);
		const wordy = Object.values(found).filter((parts) => parts.length > MAX_NOTICE_SENTENCES);
		expect({ long, wordy }).toEqual({ long: [], wordy: [] });
	}, 240_000);
});
