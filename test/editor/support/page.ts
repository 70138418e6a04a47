import type { Locator, Page } from 'playwright-core';

/** What the canvas of an open workflow shows. */

const STICKY = '[data-node-type="n8n-nodes-base.stickyNote"] [data-test-id="sticky"]';

export interface ShownSticky {
	/** As rendered, with typographic quotes made plain again. */
	text: string;
	/** Its **bold** parts. */
	bold: string[];
}

const plain = (text: string) => text.replace(/[‘’]/g, "'").replace(/[“”]/g, '"');

/** The sticky notes on the canvas, as the editor renders their Markdown. */
export async function stickyNotes(page: Page): Promise<ShownSticky[]> {
	const notes = await page.locator(STICKY).evaluateAll((stickies) =>
		stickies.map((sticky) => ({ text: (sticky as unknown as { innerText: string }).innerText, bold: [...sticky.querySelectorAll('strong')].map((b) => b.textContent ?? '') })),
	);
	return notes.map(({ text, bold }) => ({ text: plain(text), bold: bold.map(plain) }));
}

/** The names of the nodes on the canvas, sticky notes aside. */
export async function canvasNodeNames(page: Page): Promise<string[]> {
	return await page
		.locator('[data-test-id="canvas-node"]:not([data-node-type="n8n-nodes-base.stickyNote"])')
		.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-node-name') ?? ''));
}

/** What a canvas node shows under its name: its subtitle, or its note when it is set to show in the flow. */
export async function canvasNodeText(page: Page, name: string): Promise<string> {
	return await page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`).innerText();
}

/** The labels of a canvas node's main outputs, in order: the text, and whether n8n cut it off (its ellipsis). */
export async function outputLabels(page: Page, name: string): Promise<Array<{ text: string; cut: boolean }>> {
	return await page
		.locator(`[data-test-id="canvas-node-output-handle"][data-node-name="${name}"] .canvas-node-handle-main-output [class*="_label_"]`)
		.evaluateAll((labels) => labels.map((label) => ({ text: label.textContent?.trim() ?? '', cut: label.scrollWidth > label.clientWidth })));
}

/** The node's panel (n8n's NDV): what its parameters show. */

export const ndv = (page: Page): Locator => page.getByTestId('ndv');
const parameters = (page: Page): Locator => ndv(page).getByTestId('node-parameters');

/** Opens the canvas node named `name` as a user does (double click). */
export async function openNode(page: Page, name: string): Promise<void> {
	await page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`).dblclick();
	await parameters(page).waitFor();
}

export async function closeNode(page: Page): Promise<void> {
	await ndv(page).getByTestId('ndv-close-button').click();
	await ndv(page).waitFor({ state: 'hidden' });
}

/** The labels of the parameters shown, top to bottom, once `expected` all show (the resource mapper's come late) or the wait is over: the caller's assertion tells what lacks. */
export async function visibleLabels(page: Page, expected: string[] = [], timeoutMs = 20_000): Promise<string[]> {
	await parameters(page).getByTestId('input-label').filter({ visible: true }).first().waitFor();
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const shown = await labelsNow(page);
		if (expected.every((label) => shown.includes(label)) || Date.now() >= deadline) return shown;
		await page.waitForTimeout(200);
	}
}

async function labelsNow(page: Page): Promise<string[]> {
	return await parameters(page)
		.getByTestId('input-label')
		.evaluateAll((labels) => labels.filter((label) => label.checkVisibility()).map((label) => label.querySelector('label [class*="_title_"]')?.textContent?.trim() ?? ''));
}

/** Labels of the parameters n8n marks as needing a value (its parameter-issues sign beside them). */
export async function markedParameters(page: Page): Promise<string[]> {
	return await parameters(page)
		.locator('[data-test-id="parameter-item"]:has([data-test-id="parameter-issues"])')
		.evaluateAll((items) => items.map((item) => item.querySelector('[data-test-id="input-label"] label [class*="_title_"]')?.textContent?.trim() ?? ''));
}

// What n8n marks a parameter in trouble with: lint marks (e.g. "Unexpected end of JSON input" on empty JSON), the issues sign, the mapper's stale-fields warning.
const ERROR_MARKS = '.cm-lint-marker-error, .cm-lintRange-error, .cm-lintPoint-error, [data-test-id="parameter-issues"]';
const ERROR_TEXTS = [/outdated/i, /Refresh to see the updated fields/i, /Unexpected end of JSON/i];

// CodeMirror lints 750 ms after drawing, and the resource mapper compares its fields with the ERP's after a request: a mark may come that late.
const LINT_SETTLE_MS = 2_000;

/** Every error mark and warning text in the open panel ([] when clean); a code editor or resource mapper is watched until it has checked or a mark shows. */
export async function errorMarks(page: Page): Promise<string[]> {
	await parameters(page).waitFor();
	const deadline = Date.now() + ((await ndv(page).locator('.cm-editor, [data-test-id="resource-mapper-container"]').count()) > 0 ? LINT_SETTLE_MS : 0);
	for (;;) {
		const marks = await errorMarksNow(page);
		if (marks.length > 0 || Date.now() >= deadline) return marks;
		await page.waitForTimeout(100);
	}
}

async function errorMarksNow(page: Page): Promise<string[]> {
	const marks = await ndv(page)
		.locator(ERROR_MARKS)
		.evaluateAll((found) => found.map((mark) => `${mark.className || mark.getAttribute('data-test-id')} in "${mark.closest('[data-test-id="parameter-item"], .parameter-item')?.querySelector('label [class*="_title_"]')?.textContent?.trim() ?? '?'}"`));
	const text = await ndv(page).innerText();
	return [...marks, ...ERROR_TEXTS.filter((pattern) => pattern.test(text)).map(String)];
}

/** What the open panel shows for parameter `name` (its first input): its text and its inputs' values. */
export async function shownValue(page: Page, name: string): Promise<string> {
	return await parameters(page)
		.locator(`[data-test-id^="parameter-input-${name}"]`)
		.first()
		.evaluate((input) => `${input.textContent ?? ''} ${[...input.querySelectorAll('input')].map((i) => i.value).join(' ')}`.trim());
}

/** The names of the options the open dropdown lists (each option's first line), once it shows them: it opens after the click returns. */
export async function dropdownOptions(page: Page): Promise<string[]> {
	const options = page.locator('.el-select-dropdown__item').filter({ visible: true });
	await options.first().waitFor();
	return (await options.allInnerTexts()).map((text) => text.trim().split('\n')[0].trim());
}

/** n8n's node panel (the node creator, opened with "+"): its entries, and each entry's page of actions and triggers. */

const PACKAGE = 'n8n-nodes-erp';

/** Opens the panel on the canvas's "+" and searches `text`; resolves once the package's entries are listed. */
export async function searchNodePanel(page: Page, text: string): Promise<void> {
	await page.getByTestId('node-creator-plus-button').click();
	await page.getByTestId('node-creator-search-bar').fill(text);
	await packageEntries(page).first().waitFor();
}

/** The listed entries of this package's nodes (n8n keys each by its node type). */
const packageEntries = (page: Page): Locator =>
	page.getByTestId('node-creator').locator(`[data-keyboard-nav-type="node"][data-keyboard-nav-id^="${PACKAGE}."]`);

export async function listedEntries(page: Page): Promise<Array<{ name: string; description: string }>> {
	return await packageEntries(page).evaluateAll((items) =>
		items.map((item) => ({
			name: item.querySelector('[data-test-id="node-creator-item-name"]')?.textContent?.trim() ?? '',
			description: item.querySelector('[data-test-id="node-creator-item-description"]')?.textContent?.trim() ?? '',
		})),
	);
}

/** Clicks the entry named `name` and waits for its page (the node's details, its triggers and actions). */
export async function openEntry(page: Page, name: string): Promise<void> {
	await packageEntries(page).filter({ has: page.getByTestId('node-creator-item-name').getByText(name, { exact: true }) }).click();
	await page.getByTestId('node-creator').getByTestId('node-creator-category-item').first().waitFor();
}

/** The description under an entry page's name: n8n gives it no data-test-id, so a visible span of its CSS module class (the hidden search list has paragraphs). */
export const entryPageDescription = (page: Page): Locator =>
	page.getByTestId('node-creator').locator('span[class*="_description_"]').filter({ visible: true }).first();

const actionItems = (page: Page, nodeType: string): Locator =>
	page.getByTestId('node-creator').locator(`[data-keyboard-nav-type="action"][data-keyboard-nav-id^="${PACKAGE}.${nodeType}-"]`);

/** Expands the entry page's category ("Triggers", "Actions") of `nodeType`'s items when n8n shows it collapsed. */
export async function expandCategory(page: Page, category: 'Triggers' | 'Actions', nodeType: string): Promise<void> {
	if ((await actionItems(page, nodeType).count()) > 0) return;
	await page.getByTestId('node-creator-category-item').filter({ hasText: new RegExp(`^${category} \\(\\d+\\)`) }).click();
	await actionItems(page, nodeType).first().waitFor();
}

/** Waits until the count of `items` holds over three reads two animation frames apart: n8n renders a long action list in batches, the last one late on a busy machine. */
async function renderedAll(page: Page, items: Locator): Promise<void> {
	let last = -1;
	for (let same = 0; same < 3; ) {
		await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
		const count = await items.count();
		same = count === last ? same + 1 : 0;
		last = count;
	}
}

/** The names of the listed actions and triggers that add a node of `nodeType` (e.g. "erpTrigger"), in order. */
export async function listedActions(page: Page, nodeType: string): Promise<string[]> {
	await renderedAll(page, actionItems(page, nodeType));
	return (await actionItems(page, nodeType).getByTestId('node-creator-item-name').allTextContents()).map((name) => name.trim());
}

/** Picks the listed action or trigger named `name`: n8n adds its node and opens it. */
export async function pickAction(page: Page, name: string): Promise<void> {
	await page.getByTestId('node-creator').locator('[data-keyboard-nav-type="action"]').filter({ has: page.getByTestId('node-creator-item-name').getByText(name, { exact: true }) }).click();
	await page.getByTestId('ndv').waitFor();
}
