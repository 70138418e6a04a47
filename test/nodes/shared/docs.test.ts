import { docsPage, REPOSITORY } from '../../../nodes/shared/docs';

describe('docsPage: the address of a documentation page the editor links', () => {
	it('names the page under docs/ on the main branch, and the heading when one is given', () => {
		expect(docsPage('triggers.md', 'cost-per-poll')).toBe(`${REPOSITORY}/blob/main/docs/triggers.md#cost-per-poll`);
		expect(docsPage('speed.md')).toBe(`${REPOSITORY}/blob/main/docs/speed.md`);
	});
});
