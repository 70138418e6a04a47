import { Erp } from '../../nodes/Erp/Erp.node';
import { ErpPollingTrigger } from '../../nodes/ErpPollingTrigger/ErpPollingTrigger.node';
import { ErpTrigger } from '../../nodes/ErpTrigger/ErpTrigger.node';
import { MAX_NOTICE_SENTENCES, MAX_TEXT_CHARS, nodeTexts, OTHER_LINE_WORDS, sentences } from '../../tooling/host/nodeTexts';

/** The three nodes' texts as the editor shows them: short, and in n8n 2.x's words (the editor suite reads them there too). */
describe.each([
	['ERP', new Erp()],
	['ERP Trigger', new ErpTrigger()],
	['ERP Polling Trigger', new ErpPollingTrigger()],
])('%s: the texts of its panel', (_, { description }) => {
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
