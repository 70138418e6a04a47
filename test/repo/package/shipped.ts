/**
 * What package.json tells n8n to load, and the files each loaded class names: shared by the tests of dist/ and of
 * the tarball.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ICredentialType, Icon, INodeType } from 'n8n-workflow';

export const ROOT = path.resolve(__dirname, '../../..');

interface PackageJson {
	name: string;
	main?: string;
	files: string[];
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	n8n: { n8nNodesApiVersion: number; credentials: string[]; nodes: string[] };
}

export const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson;
export const credentialFiles = pkg.n8n.credentials;
export const nodeFiles = pkg.n8n.nodes;

/** As n8n's DirectoryLoader: the class name is the file name up to its first dot. */
export const classNameOf = (file: string): string => path.basename(file).split('.')[0];
/** n8n's type name for a node or credential: the class name in camelCase. */
export const typeNameOf = (file: string): string => classNameOf(file)[0].toLowerCase() + classNameOf(file).slice(1);

function loadClass<T>(file: string): T {
	const absolute = path.join(ROOT, file);
	if (!existsSync(absolute)) throw new Error(`${file} is missing: run npm run build (npm test runs it first)`);
	const exported = require(absolute) as Record<string, unknown>;
	const Class = exported[classNameOf(file)];
	if (typeof Class !== 'function') {
		throw new Error(`${file} exports no class ${classNameOf(file)} (exports: ${Object.keys(exported).join(', ')})`);
	}
	return new (Class as new () => T)();
}

export const loadNode = (file: string) => loadClass<INodeType>(file);
export const loadCredential = (file: string) => loadClass<ICredentialType>(file);

/** The files an icon names (`file:` paths, relative to the file that names them), as paths from the package root. */
export function iconFiles(icon: Icon | undefined, declaredIn: string): string[] {
	if (icon === undefined) return [];
	const values = typeof icon === 'string' ? [icon] : [icon.light, icon.dark];
	return values.map((value) => {
		expect(value).toMatch(/^file:/);
		return path.relative(ROOT, path.resolve(ROOT, path.dirname(declaredIn), value.slice('file:'.length))).split(path.sep).join('/');
	});
}

/** A node's codex: its compiled file with `.json` for `.js` (`Erp.node.js` → `Erp.node.json`). */
export const codexFileOf = (nodeFile: string): string => `${nodeFile}on`;
