import type { SavedWorkflow } from '../types';

/**
 * What differs between the n8n lines this project is tested on, for the e2e host and the tests that meet it.
 * Everything else the host uses (owner setup, login, API keys, credentials, workflow activation by version, node
 * types, the public executions API, webhooks) is the same in 1.123.x and 2.41.x.
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
	/**
	 * Whether the credential Test button shows the message of the credential's own `rules` for an error status.
	 * No on 1.x: its NodeApiError drops the response those rules read, so n8n's generic message shows instead.
	 */
	credentialTestRuleMessages: boolean;
	/**
	 * The shortest Poll Times a polling trigger may have, and how long a poll may then take to come: 2.x refuses
	 * any cron whose seconds field is not one number, but takes several Poll Times entries, each at its own second;
	 * 1.x refuses only a `*` there, so a list of seconds passes.
	 */
	shortestPoll: { pollTimes: { item: Array<Record<string, unknown>> }; intervalMs: number };
}
