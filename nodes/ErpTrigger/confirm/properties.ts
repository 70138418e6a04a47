import type { INodeProperties } from 'n8n-workflow';

/** Seconds a record the ERP does not show yet is read again for, unless the user sets Confirmation Wait. */
export const DEFAULT_CONFIRMATION_WAIT_S = 3;
export const MAX_CONFIRMATION_WAIT_S = 30;

const confirming = { show: { '@version': [2], confirm: [true] } };

/** Version 2's Confirm With the ERP, and what it brings: after Events. */
export const confirmProperties: INodeProperties[] = [
	{
		displayName: 'Confirm With the ERP',
		name: 'confirm',
		type: 'boolean',
		default: true,
		displayOptions: { show: { '@version': [2] } },
		description:
			"Whether to read each delivery's record back from the ERP before the workflow acts on it. Deliveries the ERP bears out leave on Confirmed with the record as the ERP holds it; forged, stale or unreadable ones on Not Confirmed with the reason.",
	},
	{
		displayName:
			'Connect the steps that act to Confirmed. Not Confirmed gets what the ERP contradicts or could not confirm, each with a reason in {{ $json.confirmation.reason }}.',
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
				name: 'Send to Not Confirmed',
				value: 'notConfirmed',
				description: 'Start the workflow on Not Confirmed, answering 200',
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
export const confirmationWaitOption: INodeProperties = {
	displayName: 'Confirmation Wait (Seconds)',
	name: 'confirmationWait',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: MAX_CONFIRMATION_WAIT_S, numberPrecision: 1 },
	default: DEFAULT_CONFIRMATION_WAIT_S,
	displayOptions: { show: { '/confirm': [true] } },
	description:
		'How long to keep reading a record the ERP does not show yet (again after 0.5, 1, 2 s…) before the delivery counts as contradicted; 0 reads once. The ERP waits for the answer meanwhile, and ERPs commonly wait 5–10 s: keep this below what yours waits.',
};

export const stockOptions: INodeProperties[] = [
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
