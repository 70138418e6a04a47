import type { Owner } from '../../../tooling/host/restClient';
import type { Credential } from '../../../tooling/host/types';
import type { ClusterTimings } from '../../../tooling/host/queue/cluster';
import type { QueueProcessSpec } from '../../../tooling/host/queue/n8nQueueProcess';

/** What globalSetup hands to the suite (through a JSON file named in the environment). */
export interface QueueContext {
	runId: string;
	mainUrl: string;
	/** The webhook processor: the ERP posts its events here. */
	webhookUrl: string;
	sandboxUrl: string;
	/** The ERP's API as the credential reaches it, for writing to the ERP directly. */
	erp: { baseUrl: string; token: string };
	owner: Owner;
	apiKey: string;
	credential: Credential;
	processes: Array<{ spec: QueueProcessSpec; pid: number; logFile: string }>;
	timings: ClusterTimings;
	/** The sandbox's webhook retry delays (a delivery is retried when n8n does not answer 2xx in time). */
	webhookRetryDelaysMs: number[];
	webhookTimeoutMs: number;
	n8nVersion: string;
}

export const QUEUE_CONTEXT_ENV = 'N8N_ERP_QUEUE_CONTEXT';
