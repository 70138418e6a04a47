import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The floor's package name: n8n loads every `n8n-nodes-*` folder of the user folder's nodes. */
export const FLOOR_PACKAGE = 'n8n-nodes-erp-floor';
/** Its node type as workflows name it. */
export const FLOOR_NODE_TYPE = `${FLOOR_PACKAGE}.erpFloor`;

/**
 * Puts the compiled ErpFloor node (beside this file in .build/bench/floor) into the user folder's community
 * packages, next to n8n-nodes-erp, before n8n boots.
 */
export function installFloor(userFolder: string): void {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const packageDir = path.join(nodesDir, 'node_modules', FLOOR_PACKAGE);
	mkdirSync(packageDir, { recursive: true });
	copyFileSync(path.join(__dirname, 'ErpFloor.node.js'), path.join(packageDir, 'ErpFloor.node.js'));
	const manifest = { name: FLOOR_PACKAGE, version: '0.0.0', private: true, n8n: { n8nNodesApiVersion: 1, credentials: [], nodes: ['ErpFloor.node.js'] } };
	writeFileSync(path.join(packageDir, 'package.json'), JSON.stringify(manifest, null, 2));
	const installed = path.join(nodesDir, 'package.json');
	const list = JSON.parse(readFileSync(installed, 'utf8')) as { dependencies: Record<string, string> };
	writeFileSync(installed, JSON.stringify({ ...list, dependencies: { ...list.dependencies, [FLOOR_PACKAGE]: manifest.version } }, null, 2));
}
