import type { Locator, Page } from 'playwright-core';

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
