import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { EXAMPLE, pathProblem, staysBelow } from '../../../shared/apiPath';
import { argumentLabel } from '../shared/tool';

/** The Path parameter, trimmed and checked before any request is sent. */
export function readPath(this: IExecuteFunctions, baseUrl: string, itemIndex: number): string {
	const raw = this.getNodeParameter('path', itemIndex, '') as unknown;
	const path = typeof raw === 'string' ? raw.trim() : String(raw ?? '');
	const found = pathProblem(path) ?? (staysBelow(baseUrl, path) ? undefined : { problem: `"${path}" does not stay below the Base URL`, fix: `Enter a path ${EXAMPLE}.` });
	if (!found) return path;
	const node = this.getNode();
	throw new NodeOperationError(node, `${argumentLabel(node, 'path', 'Path')} ${found.problem}: nothing was sent`, { itemIndex, description: found.fix });
}
