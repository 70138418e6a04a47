import type { INodeProperties } from 'n8n-workflow';

import { DELIVERY_ID_HEADERS } from './deliveryKey';
import { LATE_VISIBILITY_MS } from './readBack';

/** The "All Events" choice of the Events parameter. */
export const ALL_EVENTS = '*';

/** Verification's "None" in version 2 (`none` in version 1): the ERP API credential shows for every value of it (see the node's credentials). */
export const NO_VERIFICATION_V2 = 'off';

/** Seconds a record the ERP does not show yet is read again for, unless the user sets Confirmation Wait. */
export const DEFAULT_CONFIRMATION_WAIT_S = 3;
export const MAX_CONFIRMATION_WAIT_S = 30;

const confirming = { show: { '@version': [2], confirm: [true] } };

/** Version 2's Confirm With the ERP, and what it brings: after Events. */
const confirmProperties: INodeProperties[] = [
	{
		displayName: 'Confirm With the ERP',
		name: 'confirm',
		type: 'boolean',
		default: true,
		displayOptions: { show: { '@version': [2] } },
		description:
			"Whether to read each delivery's record back from the ERP before the workflow acts on it. Deliveries the ERP bears out leave on Confirmed with the record as the ERP holds it; forged, stale or unreadable ones on Unconfirmed with the reason.",
	},
	{
		displayName:
			"Each delivery is first read back from the ERP: connect the steps that act to Confirmed, which gets only what the ERP bears out. Unconfirmed gets the rest, each with its reason in the item's confirmation.reason field.",
		name: 'confirmNotice',
		type: 'notice',
		default: '',
		displayOptions: confirming,
	},
	{
		displayName: 'Events Not in the List',
		name: 'otherEvents',
		type: 'options',
		options: [
			{
				name: 'Send to Unconfirmed',
				value: 'notConfirmed',
				description: 'Start the workflow on Unconfirmed, answering 200',
			},
			{
				name: 'Ignore',
				value: 'ignore',
				description: 'Answer 200 and start nothing',
			},
		],
		default: 'notConfirmed',
		displayOptions: { show: { '@version': [2], confirm: [true], events: ['*'] } },
		description:
			'What to do with an event name other than the six above, which All Events lets in: the ERP API has no way to confirm it, so it never leaves on Confirmed',
	},
];

/** Version 2's options of the confirmation, in the Options collection (its options go in name order). */
const confirmationWaitOption: INodeProperties = {
	displayName: 'Confirmation Wait (Seconds)',
	name: 'confirmationWait',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: MAX_CONFIRMATION_WAIT_S, numberPrecision: 1 },
	default: DEFAULT_CONFIRMATION_WAIT_S,
	displayOptions: { show: { '/confirm': [true] } },
	description:
		`How long to keep reading a record the ERP does not show yet (again after 0.5, 1, 2 s…) before answering the ERP; 0 reads once. Keep it below how long your ERP waits for the answer (commonly 5–10 s). Still not shown then, it is read on until ${LATE_VISIBILITY_MS / 1000} s after the delivery came.`,
};

const stockOptions: INodeProperties[] = [
	{
		displayName: 'Quantity Field',
		name: 'quantityField',
		type: 'string',
		default: 'quantity',
		displayOptions: { show: { '/confirm': [true] } },
		description: "For Product Low Stock: the field of a product's stock records holding the quantity; their sum is the stock",
	},
	{
		displayName: 'Threshold Field',
		name: 'thresholdField',
		type: 'string',
		default: 'low_stock_threshold',
		displayOptions: { show: { '/confirm': [true] } },
		description: "For Product Low Stock: the product field holding the threshold the stock must be below",
	},
];

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
			"To act once per event, however often the ERP sends it and through either ERP trigger, use Remove Duplicates (Remove Items Processed in Previous Executions, Scope: Workflow) on the item's eventKey.",
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
