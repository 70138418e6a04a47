import type { ICredentialsDecrypted, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';

/**
 * Tests the ERP Webhook API credential by what can be known without the ERP: the API has no endpoint that
 * confirms a webhook secret. A wrong secret shows as 401 answers in the ERP's delivery log.
 */
export async function erpWebhookApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const secret = credential.data?.secret;
	if (typeof secret !== 'string' || secret === '') {
		return { status: 'Error', message: 'Enter the secret the ERP uses for its webhook deliveries' };
	}
	if (secret.trim() !== secret) {
		return { status: 'Error', message: 'The secret starts or ends with a space: copy it again without it' };
	}
	return {
		status: 'OK',
		message: 'The secret is set. The ERP cannot confirm it: deliveries that fail verification are answered 401.',
	};
}
