import type { Credential } from '../../tooling/host/types';
import { node } from '../../tooling/host/workflows';
import { splitOut, workflow, type BenchWorkflow } from '../workflows';
import { FLOOR_NODE_TYPE } from './install';

/** The ERP Floor node: `parameters` as in bench/floor/ErpFloor.node.ts, reading the ERP through `credential`. */
const floor = (credential: Credential, parameters: Record<string, unknown>, name = 'ERP Floor') =>
	node(name, FLOOR_NODE_TYPE, 1, parameters, { credentials: { erpApi: { id: credential.id, name: credential.name } } });

/** Every contact, page by page, `concurrency` pages at once (as erpListAll). */
export const floorListAll = (credential: Credential, concurrency: number): BenchWorkflow =>
	workflow(`floor-list-${concurrency}`, [floor(credential, { method: 'GET', path: '/contacts', allPages: true, concurrency })], 'id');

/** One contact created per row of the webhook body `{rows}` (as erpCreate). */
export const floorCreate = (credential: Credential, concurrency: number): BenchWorkflow =>
	workflow(`floor-create-${concurrency}`, [splitOut('body.rows'), floor(credential, { method: 'POST', path: '/contacts', sendItem: true, concurrency })], 'id');

/** Each row `{contact_id, lines}` created as an invoice, which is then sent (as erpCreateAndSend). */
export const floorCreateAndSend = (credential: Credential, concurrency: number): BenchWorkflow =>
	workflow(
		`floor-invoice-send-${concurrency}`,
		[
			splitOut('body.rows'),
			floor(credential, { method: 'POST', path: '/invoices', sendItem: true, concurrency }, 'Create Invoice'),
			floor(credential, { method: 'POST', path: '=/invoices/{{ $json.id }}/send', concurrency }, 'Send Invoice'),
		],
		'id',
	);
