/**
 * The package as n8n loads it: each file package.json lists under `n8n` is required from dist/ and its class,
 * named after the file, instantiated. `npm test` builds dist/ first (the pretest script).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { ICredentialType, INodeType } from 'n8n-workflow';

const root = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { n8n: { credentials: string[]; nodes: string[] } };

function load<T>(file: string): T {
	const className = path.basename(file).split('.')[0];
	const exported = (require(path.join(root, file)) as Record<string, new () => T>)[className];
	expect(typeof exported).toBe('function');
	return new exported();
}

describe('the built package, loaded the way n8n loads it', () => {
	it.each(pkg.n8n.credentials)('%s exports its class, which describes a credential n8n can test and apply', (file) => {
		const credential = load<ICredentialType>(file);
		expect(credential.name).toMatch(/^[a-z][A-Za-z]+Api$/);
		expect(credential.displayName).toBeTruthy();
		expect(credential.properties.length).toBeGreaterThan(0);
		expect(credential.documentationUrl).toMatch(/^https:\/\//);
		if (credential.name === 'erpApi') {
			expect(credential.authenticate).toMatchObject({ type: 'generic', properties: { headers: { Authorization: expect.stringContaining('Bearer') } } });
			expect(credential.test?.request).toMatchObject({ url: '/contacts', qs: { page: 1, per_page: 1 } });
		}
	});

	it.each(pkg.n8n.nodes)('%s exports its class; its icons and codex file ship beside it', (file) => {
		const node = load<INodeType>(file);
		const { description } = node;
		expect(description.name).toMatch(/^erp/);
		expect(description.version).toBe(1);
		expect(description.properties.length).toBeGreaterThan(0);
		const dir = path.join(root, path.dirname(file));
		const icon = description.icon as { light: string; dark: string };
		for (const variant of [icon.light, icon.dark]) {
			expect(variant).toMatch(/^file:/);
			expect(existsSync(path.join(dir, variant.slice('file:'.length)))).toBe(true);
		}
		expect(existsSync(path.join(root, file.replace(/\.js$/, '.json')))).toBe(true);
	});
});
