import type { INodePropertyOptions } from 'n8n-workflow';

import { ERP_NODE_TYPE, ERP_TRIGGER_TYPE } from '../../tooling/host/workflows';
import { screenshotFile, useEditor } from './support/session';
import { dropdownOptions, entryPageDescription, expandCategory, listedActions, listedEntries, openEntry, pickAction, searchNodePanel, visibleLabels } from './support/page';

// What an analyst sees on adding a first step: n8n merges the action node `erp` and the webhook trigger
// `erpTrigger` into one entry "ERP" (described by the trigger's description), and lists the polling trigger as
// "ERP Polling" (its display name without "Trigger").

/** The polling trigger's entries, in the order n8n lists them (its Trigger On's options, by name: resource, then watch). */
const POLLING_WATCHES = [
	'On contact added',
	'On contact added or updated',
	'On contact field becomes a value',
	'On contact updated',
	'On employee added',
	'On employee field becomes a value',
	'On invoice added',
	'On invoice added or updated',
	'On invoice field becomes a value',
	'On invoice updated',
	'On product added',
	'On product added or updated',
	'On product field becomes a value',
	'On product stock below threshold',
	'On product updated',
	'On record added or updated in any list',
	'On record added to any list',
	'On record field becomes a value in any list',
	'On record updated in any list',
];

const editor = useEditor();

beforeEach(async () => {
	await editor.page.goto(`${editor.ctx.n8nUrl}/workflow/new`);
	await searchNodePanel(editor.page, 'ERP');
});

const optionsOf = async (type: string, name: string) => {
	const node = (await editor.n8n.nodeTypes()).find((t) => t.name === type);
	return (node?.properties ?? []).filter((p) => p.name === name).flatMap((p) => (p.options ?? []) as INodePropertyOptions[]);
};

describe('the node panel, searching "ERP"', () => {
	it('lists the package as "ERP" and "ERP Polling", each described in its own words', async () => {
		await editor.page.screenshot({ path: screenshotFile('node panel search ERP'), animations: 'disabled' });
		const entries = await listedEntries(editor.page);
		expect(entries.map((e) => e.name).sort()).toEqual(['ERP', 'ERP Polling']);
		const [erp, polling] = ['ERP', 'ERP Polling'].map((name) => entries.find((e) => e.name === name)?.description ?? '');
		// The merged entry holds the actions and the instant (webhook) events: its words say both.
		expect(erp).toMatch(/contacts, invoices, products/i);
		expect(erp).toMatch(/the moment the ERP sends an event/i);
		expect(polling).toMatch(/asking the ERP at each poll time/i);
	});

	it('"ERP" opens the action node\'s operations and the webhook trigger\'s events, under the same description', async () => {
		const [{ description }] = (await listedEntries(editor.page)).filter((e) => e.name === 'ERP');
		await openEntry(editor.page, 'ERP');
		expect(await entryPageDescription(editor.page).textContent()).toBe(description);

		const operations = (await optionsOf(ERP_NODE_TYPE, 'operation')).map((o) => o.action);
		await expandCategory(editor.page, 'Actions', 'erp');
		expect((await listedActions(editor.page, 'erp')).sort()).toEqual([...operations].sort());

		const events = (await optionsOf(ERP_TRIGGER_TYPE, 'events')).map((o) => o.action ?? `On ${o.name.toLowerCase()}`);
		await expandCategory(editor.page, 'Triggers', 'erpTrigger');
		expect(await listedActions(editor.page, 'erpTrigger')).toEqual(events);
	});

	it('"ERP Polling" lists every watch of the polling trigger as its own entry', async () => {
		await openEntry(editor.page, 'ERP Polling');
		// The picture of the list for people (docs/images' before/after), taken before the assertion can fail.
		// animations disabled: the entry's page slides in, and the picture must show it in place.
		await editor.page.screenshot({ path: screenshotFile('node panel ERP Polling'), animations: 'disabled' });
		expect(await listedActions(editor.page, 'erpPollingTrigger')).toEqual(POLLING_WATCHES);
	});

	it('"ERP Polling" names each entry as Trigger On names its watch ("On contact added" for Contact Added)', async () => {
		const { page } = editor;
		await openEntry(page, 'ERP Polling');
		const entries = await listedActions(page, 'erpPollingTrigger');
		await pickAction(page, 'On contact added');
		await page.getByTestId('ndv').locator('[data-test-id^="parameter-input-triggerOn"]').first().click();
		const names = await dropdownOptions(page);
		expect(entries).toEqual(names.map((name) => `On ${name.toLowerCase()}`));
		expect(names).toContain('Contact Added');
	});

	it('"On product stock below threshold" opens the polling trigger on that watch, its stock parameters shown', async () => {
		const { page } = editor;
		await openEntry(page, 'ERP Polling');
		await pickAction(page, 'On product stock below threshold');
		// Trigger On names the resource too, so there is no Resource.
		const labels = ['Trigger On', 'Products', 'Threshold'];
		const shown = await visibleLabels(page, labels);
		expect(shown).toEqual(expect.arrayContaining(labels));
		expect(shown).not.toContain('Resource');
		const triggerOn = await page.getByTestId('ndv').locator('[data-test-id^="parameter-input-triggerOn"]').first().evaluate(
			(input) => `${input.textContent} ${[...input.querySelectorAll('input')].map((i) => i.value).join(' ')}`,
		);
		expect(triggerOn).toMatch(/stock below threshold/i);
	});

	it('"On record added to any list" opens the polling trigger on that watch, asking List Path and ID Field', async () => {
		const { page } = editor;
		await openEntry(page, 'ERP Polling');
		await pickAction(page, 'On record added to any list');
		const labels = ['Trigger On', 'List Path', 'ID Field'];
		const shown = await visibleLabels(page, labels);
		expect(shown).toEqual(expect.arrayContaining(labels));
		expect(shown).not.toContain('Products');
	});
});
