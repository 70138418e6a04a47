import type { IDataObject, INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';

import { name as packageName } from '../../../package.json';

/** The type name n8n gives a node of this package, e.g. `n8n-nodes-erp.erp`, exactly as users will have it. */
export function nodeTypeName(nodeType: INodeType | IVersionedNodeType): string {
	return `${packageName}.${nodeType.description.name}`;
}

/** The version n8n gives a node the user adds: the default version, else the highest. */
export function defaultTypeVersion(nodeType: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in nodeType) return nodeType.description.defaultVersion ?? nodeType.currentVersion;
	const { version } = nodeType.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

/** The node types one harness workflow knows, looked up by their package-prefixed names. */
export class HarnessNodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType | IVersionedNodeType>();

	constructor(nodeTypes: Array<INodeType | IVersionedNodeType>) {
		for (const nodeType of nodeTypes) this.types.set(nodeTypeName(nodeType), nodeType);
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const found = this.types.get(nodeType);
		if (found === undefined) throw new UnexpectedError(`Unrecognized node type: ${nodeType}`);
		return found;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}
