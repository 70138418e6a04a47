import type { Page } from 'playwright-core';

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
