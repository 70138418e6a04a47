/**
 * The package's home: its repository, as package.json's `repository`, `homepage` and `bugs` name it (test/repo/docs
 * checks that they agree and that every link below names a page and heading that exist). Editor texts link a page of
 * docs/ through `docsPage`; the codex files and the credential's documentationUrl must be literals (n8n's lint reads
 * them as such), so they spell the same address out and the same test checks them.
 */
export const REPOSITORY = 'https://github.com/n8n-nodes-erp/n8n-nodes-erp';

/** A page under docs/, at one of its headings (GitHub's anchor of it), as a browser opens it. */
export const docsPage = (page: string, anchor?: string): string => `${REPOSITORY}/blob/main/docs/${page}${anchor === undefined ? '' : `#${anchor}`}`;
