import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { Erp } from '../../nodes/Erp/Erp.node';
import { ErpPollingTrigger } from '../../nodes/ErpPollingTrigger/ErpPollingTrigger.node';
import { ErpTrigger } from '../../nodes/ErpTrigger/ErpTrigger.node';
import { MAX_NOTICE_SENTENCES, MAX_TEXT_CHARS, nodeTexts, OTHER_LINE_WORDS, sentences } from '../../tooling/host/nodeTexts';

const NODES = [
	['ERP', new Erp()],
	['ERP Trigger', new ErpTrigger()],
	['ERP Polling Trigger', new ErpPollingTrigger()],
] as const;

/** The three nodes' texts as the editor shows them: short, and in n8n 2.x's words (the editor suite reads them there too). */
describe.each(NODES)('%s: the texts of its panel', (_, { description }) => {
	const texts = nodeTexts(description);

	it(`has no notice, description or hint over ${MAX_TEXT_CHARS} characters`, () => {
		const long = texts.filter(({ text }) => text.length > MAX_TEXT_CHARS).map(({ where, kind, text }) => `${where} (${kind}): ${text.length}`);
		expect(long).toEqual([]);
	});

	it(`has notices of at most ${MAX_NOTICE_SENTENCES} sentences`, () => {
		const notices = texts.filter(({ kind }) => kind === 'notice');
		const wordy = notices.filter(({ text }) => sentences(text).length > MAX_NOTICE_SENTENCES).map(({ text }) => sentences(text));
		expect(wordy).toEqual([]);
	});

	it("uses none of n8n 1.x's words (activate, Listen for test event)", () => {
		expect(texts.filter(({ text }) => OTHER_LINE_WORDS.test(text)).map(({ where, text }) => `${where}: ${text}`)).toEqual([]);
	});
});

/** Every parameter of a node, at every depth (collection options, fixed-collection values, options' own parameters). */
function parameters(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => [
		property,
		...parameters(
			((property.options ?? []) as Array<INodeProperties | INodePropertyOptions | INodePropertyCollection>).flatMap((option) =>
				'values' in option ? option.values : 'type' in option ? [option as INodeProperties] : [],
			),
		),
	]);
}

const SMALL_WORDS = new Set(['as', 'of', 'a', 'an', 'the', 'and', 'or', 'to', 'in', 'on', 'at', 'by', 'for', 'per', '(JSON)', '(%)']);
const isTitleCase = (text: string) => text.split(' ').every((word, i) => (i > 0 && SMALL_WORDS.has(word)) || /^[A-Z0-9(]/.test(word));
const sorted = (names: string[]) => [...names].sort((a, b) => a.localeCompare(b));

/** n8n's conventions for a panel, held over every parameter of every node (eslint's static n8n rules cannot see what shared helpers build). */
describe.each(NODES)('%s: every parameter the n8n way', (name, { description }) => {
	const all = parameters(description.properties);

	it.each<[string, (p: INodeProperties) => boolean]>([
		['a Title Case display name (a notice\'s is its text)', (p) => p.type === 'notice' || isTitleCase(p.displayName)],
		['a boolean described as "Whether …"', (p) => p.type !== 'boolean' || /^Whether /.test(p.description ?? '')],
		['a one-sentence description without a final period', (p) => !p.description || /\. /.test(p.description) || !p.description.endsWith('.')],
		['a collection\'s options sorted by name', (p) => p.type !== 'collection' || (p.options as INodeProperties[]).map((o) => o.displayName).join() === sorted((p.options as INodeProperties[]).map((o) => o.displayName)).join()],
		['choices in Title Case', (p) => p.type !== 'options' || (p.options as INodePropertyOptions[]).every((o) => isTitleCase(o.name))],
		// The triggers order some choices by what they do (Send to Unconfirmed before Ignore).
		['choices sorted by name, in the action node', (p) => name !== 'ERP' || p.type !== 'options' || (p.options as INodePropertyOptions[]).map((o) => o.name).join() === sorted((p.options as INodePropertyOptions[]).map((o) => o.name)).join()],
	])('%s', (_rule, holds) => {
		expect(all.length).toBeGreaterThan(5);
		expect(all.filter((p) => !holds(p)).map((p) => p.name)).toEqual([]);
	});
});

describe('sentences, as the checks above count them', () => {
	it.each([
		['One. Two? Three!', 3],
		['A field takes a value, e.g. its status becomes paid.', 1],
		['Dedupe on {{ $json.deliveryKey }}. Then once.', 2],
		['No period at the end', 1],
	])('%j has %i', (text, count) => {
		expect(sentences(text)).toHaveLength(count);
	});
});
