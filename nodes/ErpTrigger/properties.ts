import type { INodeProperties } from 'n8n-workflow';

import { confirmationWaitOption, confirmProperties, stockOptions } from './confirm/properties';
import { DELIVERY_ID_HEADERS } from './deliveryKey';

/** The "All Events" choice of the Events parameter. */
export const ALL_EVENTS = '*';

/** Verification's "None" in version 2 (`none` in version 1): the ERP API credential shows for every value of it (see the node's credentials). */
export const NO_VERIFICATION_V2 = 'off';

const signed = { show: { verification: ['hmacSha256'] } };

const verificationMethods = (none: string) => [
	{
		name: 'HMAC-SHA256 Signature',
		value: 'hmacSha256',
		description: 'A header carries the HMAC-SHA256 of the raw body, keyed with the secret',
	},
	{
		name: 'None',
		value: none,
		description: 'Accept every well-formed delivery',
	},
	{
		name: 'Shared Secret in a Header',
		value: 'sharedSecret',
		description: 'A header carries the secret itself',
	},
];

const verification = (version: number, none: string): INodeProperties => ({
	displayName: 'Verification',
	name: 'verification',
	type: 'options',
	options: verificationMethods(none),
	default: none,
	displayOptions: { show: { '@version': [version] } },
	description:
		'How to check that a delivery comes from the ERP, with the Webhook Signing Secret of the ERP API credential. Deliveries that fail are answered 401 and start nothing.',
});

export const properties: INodeProperties[] = [
	{
		displayName:
			"Enter the Production URL (under Webhook URLs) in the ERP's webhook settings: the ERP API cannot register it. While you build the workflow, use the Test URL instead.",
		name: 'notice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		// The event kinds of the API document, section 6.
		options: [
			{
				name: 'All Events',
				value: ALL_EVENTS,
				description: 'Any event the ERP sends, including event names not listed here',
			},
			{ name: 'Contact Created', value: 'contact.created', description: 'A contact was created' },
			{ name: 'Contact Updated', value: 'contact.updated', description: 'A contact was updated' },
			{ name: 'Employee Hired', value: 'employee.hired', description: 'An employee was hired' },
			{ name: 'Invoice Overdue', value: 'invoice.overdue', description: 'An invoice became overdue' },
			{ name: 'Invoice Paid', value: 'invoice.paid', description: 'An invoice was paid' },
			{
				name: 'Product Low Stock',
				value: 'product.low_stock',
				description: "A product's stock fell below its threshold",
			},
		],
		default: [],
		description:
			'The events that start the workflow. All Events also starts it for event names a later ERP version adds. Deliveries of events not selected are answered 200 and start nothing.',
	},
	...confirmProperties,
	verification(1, 'none'),
	verification(2, NO_VERIFICATION_V2),
	{
		displayName: 'Signature Header',
		name: 'signatureHeader',
		type: 'string',
		required: true,
		default: 'X-Erp-Signature',
		displayOptions: signed,
		description: 'The request header with the signature. A "sha256=" prefix is accepted.',
	},
	{
		displayName: 'Signature Encoding',
		name: 'signatureEncoding',
		type: 'options',
		options: [
			{ name: 'Base64', value: 'base64' },
			{ name: 'Hex', value: 'hex' },
		],
		default: 'hex',
		displayOptions: signed,
		description: 'How the signature bytes are written in the header',
	},
	{
		displayName: 'Secret Header',
		name: 'sharedHeader',
		type: 'string',
		required: true,
		default: 'X-Erp-Webhook-Secret',
		displayOptions: { show: { verification: ['sharedSecret'] } },
		description: 'The request header with the shared secret',
	},
	{
		displayName:
			"Each item's deliveryKey is the same when the ERP sends a delivery again. A Remove Duplicates step on {{ $json.deliveryKey }} (Remove Items Processed in Previous Executions) lets each delivery through once.",
		name: 'deliveryKeyNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			confirmationWaitOption,
			{
				displayName: 'Delivery ID Header',
				name: 'deliveryIdHeader',
				type: 'string',
				default: '',
				placeholder: 'e.g. X-GitHub-Delivery',
				description: `The request header in which your ERP names each delivery, if it is none of ${DELIVERY_ID_HEADERS.join(', ')}. Its value becomes the item's deliveryKey.`,
			},
			{
				displayName: 'Output Data at Top Level',
				name: 'dataAtTopLevel',
				type: 'boolean',
				default: false,
				description:
					"Whether to output the event's data fields at the top level, beside event, timestamp and deliveryKey, instead of under data. On a name clash, event, timestamp and deliveryKey keep the delivery's values.",
			},
			...stockOptions,
		],
	},
];
