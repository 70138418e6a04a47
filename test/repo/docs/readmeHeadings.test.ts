/**
 * Issue 47 moved most of the README to pages under docs/: nothing it said may be lost. The fixture lists every
 * heading README.md had before the move (0.1.0's README), each with the page it moved to; that page has it as a
 * heading, at any level.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from '../package/shipped';
import movedTo from './fixtures/readme-headings-0.1.0.json';
import { headings } from './markdown';

const text = (heading: string) => heading.replace(/^#+ /, '');

it.each(Object.entries(movedTo))("the README's heading %s is a heading of %s", (heading, page) => {
	expect(headings(path.join(ROOT, page)).map(text)).toContain(text(heading));
});

it('the README holds at most 250 lines', () => {
	expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
});
