import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { confirmAndAnswer } from './confirm/answer';
import { deliveryKey, isHeaderName } from './deliveryKey';
import { deliveryToJson } from './item';
import { ALL_EVENTS, NO_VERIFICATION_V2, properties } from './properties';
import { validateDelivery } from './validateDelivery';
import {
	verifyDelivery,
	type SignatureEncoding,
	type Verification,
	type VerificationMethod,
} from './verifyDelivery';

function readVerification(context: IWebhookFunctions): Verification | undefined {
	const method = context.getNodeParameter('verification', 'none') as VerificationMethod;
	if (method === 'sharedSecret') {
		return { method, headerName: context.getNodeParameter('sharedHeader') as string };
	}
	if (method === 'hmacSha256') {
		return {
			method,
			headerName: context.getNodeParameter('signatureHeader') as string,
			encoding: context.getNodeParameter('signatureEncoding', 'hex') as SignatureEncoding,
		};
	}
	return undefined;
}

/** Answers the request with `status` and `{message}` itself, so n8n starts nothing and adds no answer of its own. */
function reject(context: IWebhookFunctions, status: 400 | 401, message: string): IWebhookResponseData {
	context.getResponseObject().status(status).json({ message });
	return { noWebhookResponse: true };
}

function readDeliveryIdHeader(context: IWebhookFunctions, options: IDataObject): string {
	const name = typeof options.deliveryIdHeader === 'string' ? options.deliveryIdHeader.trim() : '';
	if (name !== '' && !isHeaderName(name)) {
		throw new NodeOperationError(
			context.getNode(),
			`Options › Delivery ID Header "${name}" is not a header name: enter the name alone, e.g. X-Delivery-Id, without a colon, spaces or value`,
		);
	}
	return name;
}

/** Version 2 with Confirm With the ERP on: two outputs, Confirmed and Not Confirmed; otherwise one, as in version 1. */
const OUTPUTS = '={{ $parameter.confirm === true ? [{ type: "main", displayName: "Confirmed" }, { type: "main", displayName: "Not Confirmed" }] : ["main"] }}' as const;

export class ErpTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'ERP Trigger',
		name: 'erpTrigger',
		icon: { light: 'file:../Erp/erp.svg', dark: 'file:../Erp/erp.dark.svg' },
		group: ['trigger'],
		// 1: the trigger released in 0.1.0, kept for the workflows built with it. 2, what a new node gets: Confirm With the
		// ERP (on by default) reads each delivery's record back and sends it to Confirmed or Not Confirmed.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: `={{$parameter["events"].includes("${ALL_EVENTS}") ? "All Events" : $parameter["events"].join(", ")}}`,
		// n8n's node panel merges this trigger into the action node's entry "ERP" and shows this description there
		// (for actions and events alike), so it speaks for both; the polling trigger has an entry of its own.
		description:
			'Act on contacts, invoices, products and employees in the ERP, or start a workflow the moment the ERP sends an event (the ERP must reach this n8n; otherwise use ERP Polling)',
		defaults: { name: 'ERP Trigger' },
		inputs: [],
		outputs: OUTPUTS,
		credentials: [
			{
				name: 'erpApi',
				required: true,
				// Version 1 asks for it with verification only. Version 2 always: it is needed with verification or
				// confirmation, and a display rule cannot say "or" (n8n reads the first entry of a credential type only),
				// so its Verification None has a value of its own.
				displayOptions: { show: { verification: ['sharedSecret', 'hmacSha256', NO_VERIFICATION_V2] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Without it, n8n 2.41 answers the literal text "firstEntryJson" instead of webhookResponse.
				responseData: '',
				path: 'webhook',
			},
		],
		properties,
	};

	// n8n's verification lint (webhook-lifecycle-complete) requires all three. They register nothing: the API has no
	// way to register a webhook, so the user pastes the production URL into the ERP, as the notice says.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const headers = this.getHeaderData();
		const rawBody = this.getRequestObject().rawBody as Buffer | undefined;

		const verification = readVerification(this);
		if (verification) {
			const { webhookSecret } = await this.getCredentials<{ webhookSecret?: string }>('erpApi');
			if (!webhookSecret) {
				throw new NodeOperationError(
					this.getNode(),
					'The Webhook Signing Secret of the ERP API credential is empty: enter the secret the ERP uses for its webhook, or set Verification to None',
				);
			}
			const refusal = verifyDelivery(verification, webhookSecret, headers, rawBody);
			if (refusal) return reject(this, 401, refusal);
		}

		const validation = validateDelivery(rawBody);
		if ('reason' in validation) return reject(this, 400, validation.reason);
		const { delivery } = validation;

		const events = this.getNodeParameter('events', []) as string[];
		if (!events.includes(ALL_EVENTS) && !events.includes(delivery.event)) {
			return { webhookResponse: { message: `Event ${delivery.event} is not selected in this trigger: ignored` } };
		}

		const options = this.getNodeParameter('options', {}) as IDataObject;
		const key = deliveryKey(delivery, headers, readDeliveryIdHeader(this, options));
		if (this.getNodeParameter('confirm', false) === true) return await confirmAndAnswer(this, delivery, key, options);
		return {
			webhookResponse: { message: 'Event received' },
			workflowData: [this.helpers.returnJsonArray(deliveryToJson(delivery, key, options.dataAtTopLevel === true))],
		};
	}
}
