import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { ALL_EVENTS, NO_VERIFICATION_V2, properties } from './properties';
import { receiveDelivery } from './receiveDelivery';

/** Version 2 with Confirm With the ERP on: two outputs, Confirmed and Unconfirmed; otherwise one, as in version 1. */
const OUTPUTS = '={{ $parameter.confirm === true ? [{ type: "main", displayName: "Confirmed" }, { type: "main", displayName: "Unconfirmed" }] : ["main"] }}' as const;

export class ErpTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'ERP Trigger',
		name: 'erpTrigger',
		icon: { light: 'file:../Erp/erp.svg', dark: 'file:../Erp/erp.dark.svg' },
		group: ['trigger'],
		// 1: the trigger released in 0.1.0, kept for the workflows built with it. 2, what a new node gets: Confirm With the
		// ERP (on by default) reads each delivery's record back and sends it to Confirmed or Unconfirmed.
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
		return await receiveDelivery(this);
	}
}
