/**
 * `npm run screenshots`: the ERP node's parameters and an example workflow in the real n8n editor, taken
 * with headless Chromium (Debian's `chromium`; CHROMIUM_PATH overrides /usr/bin/chromium), into docs/images/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';

import type { Page } from 'playwright-core';

import { DEMO_SANDBOX, importExamples, type ImportedExample } from '../tooling/host/demoWorkflows';
import { launchChromium, openWorkflow, signedInPage } from '../tooling/host/editor';
import { REPO_ROOT } from '../tooling/host/paths';
import { stopOnSignals } from '../tooling/host/processes';
import { startStack, type Stack } from '../tooling/host/stack';

const IMAGES = path.join(REPO_ROOT, 'docs', 'images');

const say = (line: string) => process.stdout.write(`[screenshots] ${line}\n`);

function find(imported: ImportedExample[], name: string): ImportedExample {
	const example = imported.find((e) => e.name === name);
	if (!example) throw new Error(`no example workflow named "${name}" in examples/`);
	return example;
}

async function shoot(page: Page, file: string): Promise<void> {
	await page.screenshot({ path: path.join(IMAGES, file) });
	say(`docs/images/${file}`);
}

async function takeScreenshots(stack: Stack, imported: ImportedExample[]): Promise<void> {
	const browser = await launchChromium();
	try {
		const page = await signedInPage(browser, stack.n8n.baseUrl, stack.client.authCookie);

		await openWorkflow(page, stack.n8n.baseUrl, find(imported, 'ERP: Overdue invoice reminder').workflowId);
		await shoot(page, 'workflow-overdue-invoice-reminder.png');

		await openWorkflow(page, stack.n8n.baseUrl, find(imported, 'ERP: Contact import').workflowId);
		await page.locator('[data-test-id="canvas-node"]', { hasText: 'Create or Update Contact' }).dblclick();
		const ndv = page.locator('[data-test-id="ndv"]');
		await ndv.waitFor();
		// Run it as a user would, so that the panel shows the rows that went in and what the ERP answered.
		await ndv.locator('[data-test-id="node-execute-button"]').first().click();
		await ndv.locator('[data-test-id="output-panel"] table').waitFor();
		await page.waitForLoadState('networkidle');
		await shoot(page, 'erp-node-create-contact.png');
	} finally {
		await browser.close();
	}
}

async function main(): Promise<void> {
	mkdirSync(IMAGES, { recursive: true });
	let stack: Stack | undefined;
	stopOnSignals(async () => {
		await stack?.stop();
	}, say);
	try {
		stack = await startStack({
			owner: { email: 'screenshots@example.com', password: 'Screenshots-2026', firstName: 'Demo', lastName: 'Owner' },
			sandbox: { ...DEMO_SANDBOX, overdueSweepMs: 0 },
			log: say,
		});
		await takeScreenshots(stack, await importExamples(stack));
	} finally {
		await stack?.stop();
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`npm run screenshots failed: ${error instanceof Error ? error.stack : String(error)}\n`);
	process.exit(1);
});
