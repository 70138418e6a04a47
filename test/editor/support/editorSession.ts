import { selectors, type Page } from 'playwright-core';

import { launchChromium, signedInPage } from '../../../tooling/host/editor';
import { N8nClient } from '../../../tooling/host/restClient';
import { SandboxAdmin } from '../../../sandbox/adminClient';
import { readEditorContext, type EditorContext } from '../setup/context';
import type { WithEditorPage } from '../setup/screenshotEnvironment';

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
