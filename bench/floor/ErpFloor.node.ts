/**
 * n8n's floor for the bench: the ERP node's requests through n8n's request helper with nothing else, no
 * retries, rate control, paging rules or output shaping. Built for the bench only and never shipped: installFloor
 * puts it into the bench's n8n beside the real package. Only type imports: n8n-workflow is n8n's own there.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

const CREDENTIAL_TYPE = 'erpApi';
const PER_PAGE = 100;

interface Envelope {
	data?: unknown;
	meta?: { total?: number };
}

/** Runs `work(0..count-1)`, `limit` at once, and answers the results in order. */
async function inOrder<T>(count: number, limit: number, work: (index: number) => Promise<T>): Promise<T[]> {
	const results: T[] = new Array<T>(count);
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const index = next++;
			results[index] = await work(index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
	return results;
}

export class ErpFloor implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'ERP Floor',
		name: 'erpFloor',
		icon: 'fa:ruler',
		group: ['transform'],
		version: 1,
		description: "The ERP node's requests and nothing else (bench only)",
		defaults: { name: 'ERP Floor' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
			{ displayName: 'Path', name: 'path', type: 'string', default: '/contacts' },
			{ displayName: 'Whether to Send the Item as the Body', name: 'sendItem', type: 'boolean', default: false },
			{ displayName: 'Whether to Read Every Page', name: 'allPages', type: 'boolean', default: false },
			{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 5 },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const credentials = await this.getCredentials(CREDENTIAL_TYPE);
		const node = this.getNode().credentials?.[CREDENTIAL_TYPE];
		const credentialsDecrypted = node?.id ? { id: node.id, name: node.name, type: CREDENTIAL_TYPE, data: credentials } : undefined;
		const baseUrl = String(credentials.baseUrl).replace(/\/+$/, '');
		const concurrency = this.getNodeParameter('concurrency', 0) as number;
		// The same request options as the ERP node's transport.
		const send = async (options: Pick<IHttpRequestOptions, 'method' | 'qs' | 'body'> & { path: string }): Promise<Envelope> => {
			const response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				{
					method: options.method,
					url: `${baseUrl}${options.path}`,
					qs: options.qs,
					body: options.body,
					headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
					json: true,
					timeout: 30_000,
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
				},
				credentialsDecrypted && { credentialsDecrypted },
			)) as { statusCode: number; body: Envelope };
			if (response.statusCode >= 300) throw new Error(`${options.method} ${options.path}: ${response.statusCode}`);
			return response.body;
		};

		if (this.getNodeParameter('allPages', 0) as boolean) {
			const path = this.getNodeParameter('path', 0) as string;
			const page = async (number: number) => await send({ method: 'GET', path, qs: { page: number, per_page: PER_PAGE } });
			const first = await page(1);
			const pages = Math.ceil((first.meta?.total ?? 0) / PER_PAGE);
			const rest = await inOrder(Math.max(0, pages - 1), concurrency, async (index) => await page(index + 2));
			const records = [first, ...rest].flatMap((answer) => answer.data as IDataObject[]);
			return [records.map((json) => ({ json }))];
		}
		const answers = await inOrder(items.length, concurrency, async (index) => {
			const method = this.getNodeParameter('method', index) as IHttpRequestOptions['method'];
			const path = this.getNodeParameter('path', index) as string;
			const body = this.getNodeParameter('sendItem', index) ? items[index].json : {};
			return await send({ method, path, body });
		});
		return [answers.map((answer, index) => ({ json: answer.data as IDataObject, pairedItem: { item: index } }))];
	}
}
