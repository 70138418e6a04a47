import type { SandboxAdmin } from '../sandbox/adminClient';
import type { N8nClient } from '../tooling/host/restClient';
import type { Credential } from '../tooling/host/types';
import type { RawWorker } from './rawWorker';
import type { Api } from './rawTasks';

/** What every workload needs: n8n, the sandbox, the raw client, and where to report progress. */
export interface BenchContext {
	n8n: N8nClient;
	sandbox: SandboxAdmin;
	/** The sandbox API as the raw client calls it. */
	api: Api;
	/** "ERP API", used by the ERP node and the HTTP Request node alike. */
	credential: Credential;
	raw: RawWorker;
	n8nPid: number;
	runs: number;
	log(line: string): void;
}
