import type {
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

export class ErpApi implements ICredentialType {
	name = 'erpApi';

	displayName = 'ERP API';

	icon: Icon = { light: 'file:../nodes/Erp/erp.svg', dark: 'file:../nodes/Erp/erp.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-erp/n8n-nodes-erp#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://erp.example.com/api/v1',
			description:
				'The address of the API including the version segment /api/v1, as shown in the ERP under Settings › API keys',
		},
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The token created in the ERP under Settings › API keys',
		},
		{
			displayName: 'Webhook Signing Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Only for the ERP Trigger with Verification on: the secret entered with the webhook in the ERP (the key of its HMAC-SHA256 signature, or the value of its shared-secret header). Leave empty otherwise.',
		},
	];

	// A function rather than the generic header `=Bearer {{$credentials.apiToken}}`, which n8n evaluates in its
	// expression engine on every request: this saves n8n CPU on each one (bench/README.md, the profile).
	async authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		return { ...requestOptions, headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.apiToken)}` } };
	}

	// The cheapest real call: one contact. Its status tells whether both the address and the token work.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/contacts',
			qs: { page: 1, per_page: 1 },
			headers: { Accept: 'application/json' },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The ERP rejected the API token: copy it again from Settings › API keys',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: 'The API token is valid but may not read contacts: give it read access in the ERP',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: 'Nothing answers at this Base URL: it must end with /api/v1, e.g. https://erp.example.com/api/v1',
				},
			},
		],
	};
}
