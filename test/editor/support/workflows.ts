import type { Page } from 'playwright-core';

import { openWorkflow } from '../../../tooling/host/editor';
import { chain, node } from '../../../tooling/host/workflows';
import type { WorkflowNode } from '../../../tooling/host/types';
import type { EditorSession } from './editorSession';

export const manualTrigger = () => node('When clicking ‘Execute workflow’', 'n8n-nodes-base.manualTrigger', 1, {});

/** Saves a new workflow of these nodes, one after the other, and opens it in the editor. */
export async function openNewWorkflow({ n8n, page, ctx }: EditorSession, name: string, nodes: WorkflowNode[]): Promise<string> {
	const workflow = await n8n.createWorkflow(chain(`${name} ${Date.now()}`, nodes.map((n, i) => ({ ...n, position: [i * 240, 0] }))));
	await openWorkflow(page, ctx.n8nUrl, workflow.id);
	return workflow.id;
}

/** The title of the open node's panel: the name n8n gave the new node. */
export const openNodeName = async (page: Page): Promise<string> =>
	(await page.getByTestId('ndv').getByTestId('node-title-container').innerText()).trim();
