/**
 * A question the docs suggest asking the demo's assistant must find someone in the demo's ERP: the contact it names
 * is in the sandbox `npm start` seeds, and the search the assistant's Find_contacts tool sends finds that contact.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { DEMO_SANDBOX } from '../../../tooling/host/demoWorkflows';
import { REPO_ROOT } from '../../../tooling/host/paths';
import { startTestSandbox, type TestSandbox } from '../../../tooling/harness/sandbox';

let sandbox: TestSandbox;
beforeAll(async () => {
	sandbox = await startTestSandbox(DEMO_SANDBOX);
});
afterAll(() => sandbox.close());
const page = readFileSync(path.join(REPO_ROOT, 'docs', 'ai-agents-and-mcp.md'), 'utf8').replace(/\s+/g, ' ');

interface Contact { first_name: string; last_name: string; company: string | null }

async function search(text: string): Promise<Contact[]> {
	const response = await fetch(`${sandbox.baseUrl}/contacts?search=${encodeURIComponent(text)}`, { headers: { authorization: `Bearer ${sandbox.token}` } });
	return ((await response.json()) as { data: Contact[] }).data;
}

it("names a contact of the demo's sandbox in the example question, found by name and by company", async () => {
	const [, first, last, company] = page.match(/"Create an invoice for (\S+) (\S+) of (.+?) for /) ?? [];
	expect(company).toBeDefined();
	for (const text of [last, company]) {
		expect(await search(text)).toEqual([expect.objectContaining({ first_name: first, last_name: last, company: expect.stringContaining(company) })]);
	}
});
