/** The parts of n8n's workflow and execution JSON this project reads or writes, in n8n-workflow's types where they fit. */
import type { ExecutionStatus, IConnections, INode, IRunData } from 'n8n-workflow';

export interface CredentialRef {
	id: string;
	name: string;
}

/** A node as the REST API saves it; its parameters are whatever the test sets. */
export type WorkflowNode = Omit<INode, 'parameters'> & { parameters: Record<string, unknown> };

export interface WorkflowDefinition {
	name: string;
	nodes: WorkflowNode[];
	connections: IConnections;
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

/** An execution from the public API with `includeData=true`. */
export interface Execution {
	id: string;
	workflowId: string;
	mode: string;
	status: ExecutionStatus;
	startedAt: string;
	stoppedAt: string | null;
	data?: {
		resultData: {
			runData: IRunData;
			error?: { message: string; description?: string | null; node?: { name: string } };
			lastNodeExecuted?: string;
		};
	};
}
