/** What a reader of the package's Markdown can follow: its headings' anchors and its links, as GitHub renders them. */
import { readFileSync } from 'node:fs';

/** GitHub's anchor for a heading: lower case, punctuation dropped (letters, digits, `_` and `-` stay), spaces → `-`. */
export const githubSlug = (heading: string): string =>
	heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
		.replace(/ /g, '-');

/** The lines outside fenced code blocks. */
function prose(text: string): string[] {
	let fenced = false;
	return text.split('\n').filter((line) => {
		if (line.trimStart().startsWith('```')) fenced = !fenced;
		return !fenced && !line.trimStart().startsWith('```');
	});
}

/** A file's headings, as written (`## Speed`). */
export const headings = (file: string): string[] => prose(readFileSync(file, 'utf8')).filter((line) => /^#{1,6} /.test(line));

/** The anchors GitHub gives a file's headings; a repeated heading gets `-1`, `-2`… */
export function anchors(file: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	for (const heading of headings(file)) {
		const slug = githubSlug(heading.replace(/^#+ /, ''));
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		result.add(count === 0 ? slug : `${slug}-${count}`);
	}
	return result;
}

/** The targets of a file's Markdown links and images, outside code (`[text](target)`). */
export function links(file: string): string[] {
	return prose(readFileSync(file, 'utf8')).flatMap((line) =>
		[...line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]),
	);
}
