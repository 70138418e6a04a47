import path from 'node:path';

import { type Page, selectors } from 'playwright-core';

import type { ImportedExample } from '../../../tooling/host/demoWorkflows';
import { N8nClient, type Owner } from '../../../tooling/host/restClient';
import type { Credential, WorkflowNode } from '../../../tooling/host/types';
import { readContext } from '../../../tooling/host/context';
import { REPO_ROOT } from '../../../tooling/host/paths';
import { launchChromium, openWorkflow, signedInPage } from '../../../tooling/host/editor';
import { SandboxAdmin } from '../../../sandbox/adminClient';
import { chain, node } from '../../../tooling/host/workflows';

/** What the editor suite's globalSetup hands to its test files. */
export interface EditorContext {
	n8nUrl: string;
	/** The sandbox's admin root (its /__sandbox routes). */
	sandboxUrl: string;
	owner: Owner;
	/** The owner's public API key (tooling/host/executions.ts reads executions through it). */
	apiKey: string;
	/** "ERP API": the sandbox's base URL and token. */
	credential: Credential;
	/** examples/*.json, imported as `npm start` imports them. */
	examples: ImportedExample[];
}

export const EDITOR_CONTEXT_ENV = 'N8N_ERP_EDITOR_CONTEXT';

export const readEditorContext = () => readContext<EditorContext>(EDITOR_CONTEXT_ENV);

/** Where the suite leaves its screenshots (gitignored): one per failed test, and the node panel's pictures. */
export const SCREENSHOTS_DIR = path.join(REPO_ROOT, 'test', 'editor', 'screenshots');

/** A file in SCREENSHOTS_DIR named after `title` (a test's full name), readable in a file list. */
export const screenshotFile = (title: string): string =>
	path.join(SCREENSHOTS_DIR, `${title.replace(/[^\w.-]+/g, '-').replace(/^-|-$/g, '').slice(0, 150)}.png`);

/** The page a test file drives (useEditor registers it), as the test's global sees it: the screenshot environment reads it. */
export interface WithEditorPage {
	editorPage?: Page;
}

export interface EditorSession {
	ctx: EditorContext;
	/** Signed in as the owner. */
	n8n: N8nClient;
	sandbox: SandboxAdmin;
	/** The editor, signed in as the owner; screenshotted when a test fails. */
	page: Page;
}

// n8n marks its elements with data-test-id, which getByTestId then finds.
selectors.setTestIdAttribute('data-test-id');

// Every wait of a test ends well within the suite's test timeout, so that it fails with what it waited for.
const WAIT_MS = 20_000;

/** A test file's browser and n8n session, opened before its tests and closed after them; filled in by beforeAll, so read it inside the tests. */
export function useEditor(): EditorSession {
	const session = {} as EditorSession;
	let close = async () => undefined as void;
	beforeAll(async () => {
		const ctx = readEditorContext();
		const n8n = new N8nClient(ctx.n8nUrl, ctx.apiKey);
		await n8n.login(ctx.owner);
		const browser = await launchChromium();
		close = () => browser.close();
		const page = await signedInPage(browser, ctx.n8nUrl, n8n.authCookie);
		page.setDefaultTimeout(WAIT_MS);
		(globalThis as WithEditorPage).editorPage = page;
		Object.assign(session, { ctx, n8n, sandbox: new SandboxAdmin(ctx.sandboxUrl), page });
	});
	afterAll(async () => {
		(globalThis as WithEditorPage).editorPage = undefined;
		await close();
	});
	return session;
}

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
