import { chromium, type Browser, type Page } from 'playwright-core';

/** The n8n editor in headless Chromium (Debian's `chromium`; CHROMIUM_PATH overrides it): the one way to start it and open the editor signed in, for screenshots and test/editor/. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM_PATH, args: FLAGS });

/** A new page of a fresh browser context, signed in to the editor at `baseUrl` with the owner's session cookie. */
export async function signedInPage(browser: Browser, baseUrl: string, authCookie: string | undefined): Promise<Page> {
	if (!authCookie) throw new Error('no n8n session cookie: sign in through the REST client first');
	const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
	await context.addCookies([{ name: 'n8n-auth', value: authCookie, url: baseUrl }]);
	return await context.newPage();
}

/** Opens a workflow and waits until its nodes are drawn and n8n has fitted them into view. */
export async function openWorkflow(page: Page, baseUrl: string, workflowId: string): Promise<void> {
	await page.goto(`${baseUrl}/workflow/${workflowId}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor();
	await page.waitForLoadState('networkidle');
}
