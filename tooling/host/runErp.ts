import type { RequestLogEntry } from '../../sandbox/requestLog';
import type { Credential, WorkflowNode } from './types';
import type { Session } from './session';
import { chain, erpNode, webhookNode } from './workflows';

export interface ErpRun {
	/** n8n's HTTP status for the webhook call: 200 when the workflow succeeded. */
	status: number;
	/** The ERP node's output items (their JSON). */
	items: Array<Record<string, unknown>>;
	/** n8n's answer as it came, e.g. an error message. */
	body: unknown;
	/** What the sandbox received from n8n during the run, in order. */
	requests: RequestLogEntry[];
	workflowId: string;
}

let runs = 0;

/** Runs the ERP node in a real, active workflow (Webhook → ERP, answering with its output; `input` is the webhook body) and collects the API requests the sandbox logged meanwhile. */
export async function runErp(
	session: Session,
	parameters: Record<string, unknown>,
	options: {
		input?: Record<string, unknown>;
		credential?: Credential;
		onError?: WorkflowNode['onError'];
		/** Nodes between the webhook and the ERP node, e.g. a Split Out that makes one item per row. */
		before?: WorkflowNode[];
	} = {},
): Promise<ErpRun> {
	const path = `erp-${String(parameters.resource)}-${String(parameters.operation)}-${++runs}-${Date.now()}`;
	const erp = erpNode(parameters, options.credential ?? session.ctx.credentials.good);
	if (options.onError) erp.onError = options.onError;
	const workflow = await session.n8n.createActiveWorkflow(chain(`e2e ${path}`, [webhookNode(path), ...(options.before ?? []), erp]));
	const since = await session.sandbox.lastRequestSeq();
	const response = await session.n8n.callWebhook(path, options.input ?? {});
	const requests = await session.sandbox.requests(since);
	const items = Array.isArray(response.body) ? (response.body as Array<Record<string, unknown>>) : [];
	return { status: response.status, items, body: response.body, requests, workflowId: workflow.id };
}

/** The run's API requests as the sandbox logged them, one `METHOD /path status` line each. */
export const calls = (run: ErpRun): string[] => run.requests.map((r) => `${r.method} ${r.path} ${r.status}`);
