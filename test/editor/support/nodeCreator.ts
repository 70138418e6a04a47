import type { Locator, Page } from 'playwright-core';

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
