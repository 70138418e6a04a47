import type { SavedWorkflow } from '../types';

/**
 * What differs between the tested n8n lines; the rest the host uses (owner, login, API keys, credentials, activation,
 * node types, the public executions API, webhooks) is the same in 1.123.x and 2.41.x.
 */
export interface N8nLine {
	/** '1.x' or '2.x'. */
	name: string;
	/** Environment for every n8n process of this line, on top of the host's own. */
	environment: Record<string, string>;
	/** A GET that answers 200 with JSON once n8n serves its REST API and webhooks. */
	readyPath: string;
	/** Fields `POST /rest/workflows` needs beside the workflow's own and its project. */
	newWorkflowFields: Record<string, unknown>;
	/** The body of `POST /rest/workflows/:id/run`, as this line's editor sends it to run a saved workflow from a trigger. */
	manualRunBody(workflow: SavedWorkflow, triggerName: string): Record<string, unknown>;
	/** The Query of n8n's Tool Executor node that calls the connected tool `toolName` with these arguments. */
	toolExecutorQuery(toolName: string, args: Record<string, unknown>): Record<string, unknown>;
	/** Whether the credential Test button shows the credential's own `rules` message for an error status: not 1.x, whose NodeApiError drops the response they read. */
	credentialTestRuleMessages: boolean;
	/**
	 * The shortest Poll Times a polling trigger may have, and the longest wait for a poll then: 2.x refuses a cron
	 * whose seconds field is not one number but takes several entries, one per second; 1.x refuses only `*` there.
	 */
	shortestPoll: { pollTimes: { item: Array<Record<string, unknown>> }; intervalMs: number };
}
