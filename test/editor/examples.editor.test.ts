import { openWorkflow } from '../../tooling/host/editor';
import { OTHER_LINE_WORDS } from '../../tooling/host/nodeTexts';
import type { RequestLogEntry } from '../../sandbox/requestLog';
import { readEditorContext, useEditor } from './support/session';
import { canvasNodeNames, canvasNodeText, closeNode, errorMarks, openNode, outputLabels, shownValue, stickyNotes, visibleLabels } from './support/page';

const editor = useEditor();

// Toasts n8n shows when something is wrong on opening (a warning or an error).
const WARNING_TOASTS = '.el-notification--warning, .el-notification--error, .el-notification:has(.el-notification__icon.el-icon--warning)';

const exampleId = (name: string): string => {
	const example = readEditorContext().examples.find((e) => e.name === name);
	if (!example) throw new Error(`the example "${name}" was not imported`);
	return example.workflowId;
};

describe.each(readEditorContext().examples)('the example "$name", imported as npm start imports it', ({ workflowId }) => {
	it("opens without a warning or an issue badge, every node opens without a parameter issue, and its sticky note's bold words are its nodes, in n8n 2.x's words", async () => {
		const { page, ctx } = editor;
		await openWorkflow(page, ctx.n8nUrl, workflowId);
		expect(await page.locator(WARNING_TOASTS).allInnerTexts()).toEqual([]);
		expect(await page.locator('[data-test-id="canvas-node"]:has([data-test-id="node-issues"])').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-node-name')))).toEqual([]);

		const nodes = await canvasNodeNames(page);
		const notes = await stickyNotes(page);
		expect(notes.length).toBeGreaterThan(0);
		expect(notes.flatMap((note) => note.bold).filter((name) => !nodes.includes(name))).toEqual([]);
		expect(notes.map((note) => note.text).filter((text) => OTHER_LINE_WORDS.test(text))).toEqual([]);

		const marks: Record<string, string[]> = {};
		for (const name of nodes) {
			await openNode(page, name);
			const found = await errorMarks(page);
			if (found.length > 0) marks[name] = found;
			await closeNode(page);
		}
		expect(marks).toEqual({});
	});
});

describe.each(readEditorContext().examples.filter((e) => /Invoice paid|Low-stock alert$|Overdue/.test(e.name)))('the example "$name" (ERP Trigger, confirming)', ({ workflowId }) => {
	it("shows the trigger's two outputs, Confirmed and Unconfirmed, in full on the canvas, connected or not (n8n cuts an unconnected output's label past 76 px)", async () => {
		const { page, ctx } = editor;
		await openWorkflow(page, ctx.n8nUrl, workflowId);
		expect(await outputLabels(page, 'ERP Trigger')).toEqual([
			{ text: 'Confirmed', cut: false },
			{ text: 'Unconfirmed', cut: false },
		]);
	});
});

describe('the example "Low-stock alert" (ERP Trigger), imported unpublished', () => {
	it('says on its canvas that publishing it beside the polling alert sends every purchase request twice, naming that example', async () => {
		const { page, ctx } = editor;
		await openWorkflow(page, ctx.n8nUrl, exampleId('ERP: Low-stock alert'));
		const warning = (await stickyNotes(page)).find((note) => note.text.includes('ERP: Low-stock alert (polling)'));
		expect(warning?.text).toMatch(/With both published, every stock drop sends two purchase requests/);
		expect(warning?.text).toContain('low-stock-alert-polling.json');
	});
});

const isScan = (r: RequestLogEntry) => r.method === 'GET' && r.path === '/products' && r.query.page === '1';

describe('the example "Low-stock alert (polling)", published', () => {
	it('says in its sticky note what each poll reads, as the sandbox sees the published example read it', async () => {
		const { page, ctx, sandbox } = editor;
		await openWorkflow(page, ctx.n8nUrl, exampleId('ERP: Low-stock alert (polling)'));
		const [note] = await stickyNotes(page);
		expect(note.text).toMatch(/^Every minute, the ERP Polling Trigger reports each product whose stock fell below its low-stock threshold, once per fall/m);
		const perRequest = Number(/a poll reads the product list, one request per (\d+) products/.exec(note.text)?.[1]);
		expect(note.text).toMatch(/when the list carries each product's total stock, one product's stock to check it/);

		// Every minute, as the note says; Stock Below Threshold on the products' own threshold field.
		await openNode(page, 'ERP Polling Trigger');
		expect(await visibleLabels(page, ['Poll Times', 'Trigger On', 'Threshold Field'])).toEqual(expect.arrayContaining(['Poll Times', 'Trigger On', 'Threshold Field']));
		expect(await shownValue(page, 'mode')).toBe('Every Minute');
		expect(await shownValue(page, 'triggerOn')).toBe('Product Stock Below Threshold');
		expect(await shownValue(page, 'thresholdField')).toBe('low_stock_threshold');
		await closeNode(page);

		// One whole scheduled poll: the requests from a scan of the product list until none has come for 10 s (a poll's
		// requests follow each other within a second; the next poll is a minute away).
		const since = await sandbox.lastRequestSeq();
		const QUIET_MS = 10_000;
		let poll: RequestLogEntry[] = [];
		for (const deadline = Date.now() + 150_000; ; ) {
			const log = await sandbox.requests(since);
			const first = log.find(isScan);
			poll = first ? log.filter((r) => r.seq >= first.seq && r.path.startsWith('/products')) : [];
			if (poll.length > 0 && Date.now() - Date.parse(poll[poll.length - 1].at) >= QUIET_MS) break;
			if (Date.now() > deadline) throw new Error('the published example did not poll within 150 s');
			await page.waitForTimeout(2_000);
		}
		const products = (await sandbox.records('products')).length;
		// The sandbox's product list carries stock_total: the list, and one product's stock to check it.
		expect(poll.filter((r) => r.path === '/products').length).toBe(Math.ceil(products / perRequest));
		expect(poll.filter((r) => /^\/products\/\d+\/stock$/.test(r.path))).toHaveLength(1);
		expect(poll.filter((r) => r.path.startsWith('/products'))).toHaveLength(Math.ceil(products / perRequest) + 1);
	}, 200_000);
});

describe('the example "All contacts, one month at a time"', () => {
	it('shows on the canvas that it calls itself, not a workflow ID', async () => {
		const { page, ctx } = editor;
		const workflowId = exampleId('ERP: All contacts, one month at a time');
		await openWorkflow(page, ctx.n8nUrl, workflowId);
		const shown = await canvasNodeText(page, 'Read and Process the Part');
		expect(shown).toMatch(/this workflow/i);
		expect(shown).not.toContain(workflowId);
		const [note] = await stickyNotes(page);
		expect(note.text).toMatch(/Read and Process the Part calls this same workflow, which starts at When Called for a Part/);
	});
});
