import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

/** Answers the request with `status` and `{message}` itself, so n8n starts nothing and adds no answer of its own. */
export function reject(context: IWebhookFunctions, status: 400 | 401, message: string): IWebhookResponseData {
	context.getResponseObject().status(status).json({ message });
	return { noWebhookResponse: true };
}
