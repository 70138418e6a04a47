import type { INodePropertyOptions } from 'n8n-workflow';

/** The event kinds of the API document, section 6. */
export const ERP_EVENTS = [
	'contact.created',
	'contact.updated',
	'invoice.paid',
	'invoice.overdue',
	'product.low_stock',
	'employee.hired',
] as const;

export type ErpEvent = (typeof ERP_EVENTS)[number];

/** The "All Events" choice of the Events parameter. */
export const ALL_EVENTS = '*';

export function isErpEvent(value: unknown): value is ErpEvent {
	return typeof value === 'string' && (ERP_EVENTS as readonly string[]).includes(value);
}

/** Whether a delivery of `event` should start the workflow, given the events the user selected. */
export function isEventSelected(event: ErpEvent, selected: string[]): boolean {
	return selected.includes(ALL_EVENTS) || selected.includes(event);
}

export const eventOptions: INodePropertyOptions[] = [
	{ name: 'All Events', value: ALL_EVENTS, description: 'Any event the ERP sends' },
	{ name: 'Contact Created', value: 'contact.created', description: 'A contact was created' },
	{ name: 'Contact Updated', value: 'contact.updated', description: 'A contact was updated' },
	{ name: 'Employee Hired', value: 'employee.hired', description: 'An employee was hired' },
	{ name: 'Invoice Overdue', value: 'invoice.overdue', description: 'An invoice became overdue' },
	{ name: 'Invoice Paid', value: 'invoice.paid', description: 'An invoice was paid' },
	{ name: 'Product Low Stock', value: 'product.low_stock', description: "A product's stock fell below its threshold" },
];
