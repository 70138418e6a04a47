import type { INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

/** What the editor shows of a node's own texts, and the limits they keep. */

/** The longest notice or description a panel should hold; details go to the README. */
export const MAX_TEXT_CHARS = 300;
export const MAX_NOTICE_SENTENCES = 2;
/** n8n 1.x's words for what n8n 2.x calls publishing a workflow and testing a trigger. */
export const OTHER_LINE_WORDS = /activat|Listen for test event/i;

/** The text a notice shows: its HTML (a link to the README) without tags. */
export const shownText = (html: string): string => html.replace(/<[^>]+>/g, '');

/** The sentences of a text: a period, "!" or "?" before a space or the end closes one, an abbreviation's does not. */
export function sentences(text: string): string[] {
	return text
		.replace(/\b(e\.g|i\.e|etc)\./g, '$1')
		.split(/(?<=[.!?])\s+/)
		.map((sentence) => sentence.trim())
		.filter((sentence) => sentence !== '');
}

export interface NodeText {
	/** Where the editor shows it, e.g. "Options › Concurrency (description)". */
	where: string;
	kind: 'notice' | 'description' | 'hint';
	text: string;
}

type Option = INodeProperties | INodePropertyOptions | INodePropertyCollection;

/** Every notice, description and hint of a node description, at every depth (collections, fixed collections, choices). */
export function nodeTexts(description: INodeTypeDescription): NodeText[] {
	const texts: NodeText[] = [{ where: 'node panel entry', kind: 'description', text: description.description }];
	const visit = (option: Option, path: string) => {
		const where = path ? `${path} › ${optionName(option)}` : optionName(option);
		if ('type' in option && option.type === 'notice') texts.push({ where, kind: 'notice', text: shownText(option.displayName) });
		if ('description' in option && typeof option.description === 'string') texts.push({ where, kind: 'description', text: option.description });
		if ('hint' in option && typeof option.hint === 'string') texts.push({ where, kind: 'hint', text: option.hint });
		const children = [...('options' in option && Array.isArray(option.options) ? option.options : []), ...('values' in option ? option.values : [])];
		for (const child of children as Option[]) visit(child, where);
	};
	for (const property of description.properties) visit(property, '');
	return texts;
}

const optionName = (option: Option): string => ('displayName' in option && option.displayName ? option.displayName : option.name);
