/** The parts of n8n's workflow and execution JSON this project reads or writes. */

export interface CredentialRef {
	id: string;
	name: string;
}

export interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, CredentialRef | { id: null; name: string }>;
	webhookId?: string;
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	notes?: string;
	notesInFlow?: boolean;
}

export type ConnectionType = 'main' | 'ai_tool';

/** Per source node and connection type: per output, the inputs it feeds. */
export type Connections = Record<string, Partial<Record<ConnectionType, Array<Array<{ node: string; type: ConnectionType; index: number }>>>>>;

export interface WorkflowDefinition {
	name: string;
	nodes: WorkflowNode[];
	connections: Connections;
	settings?: Record<string, unknown>;
	pinData?: Record<string, unknown>;
	meta?: Record<string, unknown>;
}

export interface SavedWorkflow extends WorkflowDefinition {
	id: string;
	versionId: string;
	active: boolean;
}

export interface Credential extends CredentialRef {
	type: string;
}

export interface NodeTypeDescription {
	name: string;
	displayName: string;
	version: number | number[];
	usableAsTool?: boolean;
	credentials?: Array<{ name: string; required?: boolean }>;
	outputs?: unknown;
	/** Trigger nodes: the webhooks n8n serves for them. */
	webhooks?: Array<{ name: string; httpMethod: string; path: string }>;
	properties: Array<{ name: string; displayName: string }>;
}

export interface ExecutionItem {
	json: Record<string, unknown>;
}

export interface NodeRun {
	startTime: number;
	executionTime: number;
	executionStatus?: string;
	data?: { main: Array<ExecutionItem[] | null> };
	error?: { message: string; description?: string | null; httpCode?: string | null; name?: string };
}

/** An execution from the public API with `includeData=true`. */
export interface Execution {
	id: string;
	workflowId: string;
	mode: string;
	status: 'success' | 'error' | 'running' | 'waiting' | 'canceled' | 'crashed' | 'new' | 'unknown';
	startedAt: string;
	stoppedAt: string | null;
	data?: {
		resultData: {
			runData: Record<string, NodeRun[]>;
			error?: { message: string; description?: string | null; node?: { name: string } };
			lastNodeExecuted?: string;
		};
	};
}
