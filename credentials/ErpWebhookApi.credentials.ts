import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The secret the ERP Trigger checks deliveries with, when its verification is on. Nothing to call: the API has no
 * endpoint to check it against, so the ERP Trigger tests it (`testedBy`) by what can be checked locally.
 */
export class ErpWebhookApi implements ICredentialType {
	name = 'erpWebhookApi';

	displayName = 'ERP Webhook API';

	icon: Icon = { light: 'file:../nodes/Erp/erp.svg', dark: 'file:../nodes/Erp/erp.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-erp/n8n-nodes-erp#erp-trigger';

	properties: INodeProperties[] = [
		{
			displayName: 'Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The secret entered with the webhook in the ERP: the value of the shared-secret header, or the key of the HMAC-SHA256 signature',
		},
	];
}
