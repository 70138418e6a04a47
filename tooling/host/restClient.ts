import { jsonParse, type INodeCredentialTestResult, type INodeTypeDescription } from 'n8n-workflow';

import { waitFor } from '../../sandbox/adminClient';
import { N8N_VERSION } from './install';
import { n8nLine, type N8nLine } from './lines';
import { sleep } from './processes';
import type { Credential, Execution, SavedWorkflow, WorkflowDefinition } from './types';

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export class N8nRequestError extends Error {
	constructor(readonly method: string, readonly path: string, readonly status: number, readonly body: string) {
		super(`n8n answered ${status} to ${method} ${path}: ${body.slice(0, 500)}`);
	}
}

export interface WebhookResponse {
	status: number;
	/** Parsed JSON, or the text when it is not JSON. */
	body: unknown;
}

/**
 * fetch(), sent again once when n8n had closed the kept-alive connection it took ("other side closed": n8n closes one
 * idle for 5 s; a busy jest process may miss that). Webhook calls are never sent again: each starts an execution.
 */
async function fetchOnOpenConnection(url: string, init: RequestInit): Promise<Response> {
	try {
		return await fetch(url, init);
	} catch (error) {
		if ((error as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw error;
		return await fetch(url, init);
	}
}

/**
 * n8n 1.x's SQLite, under writes from several requests at once, may answer 500 with this before its transaction
 * began (seen creating a workflow while executions were saved): nothing was written, so the call is safe to repeat.
 */
export const NESTED_TRANSACTION = 'cannot start a transaction within a transaction';
const NESTED_TRANSACTION_ATTEMPTS = 4;
const NESTED_TRANSACTION_PAUSE_MS = 250;

/**
 * A small client for n8n's REST API (the editor's, authenticated by the `n8n-auth` cookie), its public API
 * (`/api/v1`, by an API key) and production webhooks; where n8n's lines differ it asks `line`, N8N_VERSION's line.
 */
export class N8nClient {
	private cookie?: string;
	private projectId?: string;
	readonly line: N8nLine = n8nLine(N8N_VERSION);

	constructor(readonly baseUrl: string, private apiKey?: string) {}

	/** The session cookie's value (`n8n-auth`), e.g. for a browser. */
	get authCookie(): string | undefined {
		return this.cookie?.slice('n8n-auth='.length);
	}

	/** A call to n8n answered 2xx (else it throws), and its answer's text and headers; sent again after n8n's SQLite
	 * refused to begin its transaction (NESTED_TRANSACTION), which wrote nothing. */
	private async call(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ text: string; headers: Headers }> {
		const json: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
		for (let attempt = 1; ; attempt++) {
			const response = await fetchOnOpenConnection(`${this.baseUrl}${path}`, { method, headers: { ...headers, ...json }, body: body === undefined ? undefined : JSON.stringify(body) });
			const text = await response.text();
			if (response.ok) return { text, headers: response.headers };
			if (response.status !== 500 || !text.includes(NESTED_TRANSACTION) || attempt >= NESTED_TRANSACTION_ATTEMPTS) throw new N8nRequestError(method, path, response.status, text);
			await sleep(NESTED_TRANSACTION_PAUSE_MS * attempt);
		}
	}

	/** Raw JSON call to the editor REST API; answers its `data`. */
	async rest<T>(method: string, path: string, body?: unknown): Promise<T> {
		const { text, headers } = await this.call(method, path, this.cookie ? { cookie: this.cookie } : {}, body);
		const auth = headers.getSetCookie().find((cookie) => cookie.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		const parsed = JSON.parse(text) as { data?: T };
		// /types/*.json answer plain arrays; the rest wraps results in {data}.
		return (parsed.data ?? parsed) as T;
	}

	/** Creates the owner on a fresh instance (its user folder is new), logs in on a kept one. */
	async signIn(owner: Owner): Promise<void> {
		const settings = await this.rest<{ userManagement: { showSetupOnFirstLoad: boolean } }>('GET', '/rest/settings');
		if (settings.userManagement.showSetupOnFirstLoad) await this.rest('POST', '/rest/owner/setup', owner);
		else await this.login(owner);
	}

	async login(owner: Pick<Owner, 'email' | 'password'>): Promise<void> {
		await this.rest('POST', '/rest/login', { emailOrLdapLoginId: owner.email, password: owner.password });
	}

	/** Creates an API key with every scope the instance offers and uses it for the public API. */
	async createApiKey(label: string): Promise<string> {
		const scopes = await this.rest<string[]>('GET', '/rest/api-keys/scopes');
		const { rawApiKey } = await this.rest<{ rawApiKey: string }>('POST', '/rest/api-keys', { label, scopes, expiresAt: null });
		this.apiKey = rawApiKey;
		return rawApiKey;
	}

	/** A call to the public API (`/api/v1`), which answers plain JSON. */
	async publicApi<T>(path: string, method = 'GET'): Promise<T> {
		if (!this.apiKey) throw new Error('createApiKey() first');
		return JSON.parse((await this.call(method, `/api/v1${path}`, { 'X-N8N-API-KEY': this.apiKey })).text) as T;
	}

	async createCredential(name: string, type: string, data: Record<string, unknown>): Promise<Credential> {
		const { id } = await this.rest<Credential>('POST', '/rest/credentials', { name, type, data });
		return { id, name, type };
	}

	/** The credential `name` of `type` with this data: created, or on a kept instance the existing one given the data. */
	async saveCredential(name: string, type: string, data: Record<string, unknown>): Promise<Credential> {
		const existing = (await this.rest<Credential[]>('GET', '/rest/credentials')).find((c) => c.name === name && c.type === type);
		if (!existing) return await this.createCredential(name, type, data);
		await this.rest('PATCH', `/rest/credentials/${existing.id}`, { ...existing, data });
		return existing;
	}

	/** What the credential dialog's Test button does. */
	async testCredential(credential: Credential, data: Record<string, unknown>): Promise<INodeCredentialTestResult> {
		return await this.rest<INodeCredentialTestResult>('POST', '/rest/credentials/test', { credentials: { ...credential, data } });
	}

	/** Saves a new workflow as the editor does; credentials named without an id are linked by name (1.x needs the project for that). */
	async createWorkflow(workflow: WorkflowDefinition): Promise<SavedWorkflow> {
		return await this.rest<SavedWorkflow>('POST', '/rest/workflows', {
			...this.line.newWorkflowFields,
			// The signed-in user's personal project, where the editor saves a new workflow.
			projectId: (this.projectId ??= (await this.rest<{ id: string }>('GET', '/rest/projects/personal')).id),
			...workflow,
			settings: { executionOrder: 'v1', ...workflow.settings },
		});
	}

	/** Names and ids; no nodes. */
	async listWorkflows(): Promise<Array<Pick<SavedWorkflow, 'id' | 'name' | 'active'>>> {
		return await this.rest('GET', '/rest/workflows');
	}

	async getWorkflow(id: string): Promise<SavedWorkflow> {
		return await this.rest<SavedWorkflow>('GET', `/rest/workflows/${id}`);
	}

	/** Publishes the workflow's current version, returning once live: at once with n8n's publication service off (status 404), else when its status names it live and settled. */
	async activateWorkflow(workflow: Pick<SavedWorkflow, 'id' | 'versionId'>): Promise<void> {
		await this.rest('POST', `/rest/workflows/${workflow.id}/activate`, { versionId: workflow.versionId });
		await waitFor(async () => {
			try {
				const publication = await this.rest<{ status: string; liveVersionId?: string }>('GET', `/rest/workflows/${workflow.id}/publication-status`);
				const live = publication.liveVersionId === workflow.versionId && publication.status !== 'in_progress';
				if (!live) await new Promise((resolve) => setTimeout(resolve, 250));
				return live;
			} catch (error) {
				if (error instanceof N8nRequestError && error.status === 404) return true;
				throw error;
			}
		}, 60_000);
	}

	/** Through the public API, the same call on both lines. */
	async deactivateWorkflow(id: string): Promise<void> {
		await this.publicApi(`/workflows/${id}/deactivate`, 'POST');
	}

	async createActiveWorkflow(workflow: WorkflowDefinition): Promise<SavedWorkflow> {
		const saved = await this.createWorkflow(workflow);
		await this.activateWorkflow(saved);
		return saved;
	}

	/** What the editor's "Execute workflow" button does: a manual run from the given trigger node. */
	async runManually(workflowId: string, triggerName: string): Promise<string> {
		const body = this.line.manualRunBody(await this.getWorkflow(workflowId), triggerName);
		const { executionId } = await this.rest<{ executionId: string }>('POST', `/rest/workflows/${workflowId}/run`, body);
		return executionId;
	}

	async nodeTypes(): Promise<INodeTypeDescription[]> {
		return await this.rest<INodeTypeDescription[]>('GET', '/types/nodes.json');
	}

	/** One execution; without its data (`includeData` false) n8n reads only its status and times. */
	async execution(id: string, includeData = true): Promise<Execution> {
		return await this.publicApi<Execution>(`/executions/${id}?includeData=${includeData}`);
	}

	/** POSTs a JSON body to a production webhook and returns whatever n8n answers. */
	async callWebhook(path: string, body: unknown): Promise<WebhookResponse> {
		const response = await fetch(`${this.baseUrl}/webhook/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		const text = await response.text();
		return { status: response.status, body: jsonParse(text, { fallbackValue: text }) };
	}
}
