import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { ErpOperations, ErpResource, ResourceModule } from '../types';

const article = (noun: string) => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

/** Option name and action sentence of each operation, in n8n's wording ("Get Many" / "Get many contacts"). */
function labels(noun: string): Record<string, { name: string; action: string }> {
	return {
		create: { name: 'Create', action: `Create ${article(noun)}` },
		delete: { name: 'Delete', action: `Delete ${article(noun)}` },
		get: { name: 'Get', action: `Get ${article(noun)}` },
		getAll: { name: 'Get Many', action: `Get many ${noun}s` },
		update: { name: 'Update', action: `Update ${article(noun)}` },
		send: { name: 'Send', action: `Send ${article(noun)}` },
		markPaid: { name: 'Mark as Paid', action: `Mark ${article(noun)} as paid` },
		getStock: { name: 'Get Stock', action: `Get the stock of ${article(noun)} per warehouse` },
		getPayroll: { name: 'Get Payroll', action: `Get the payroll history of ${article(noun)}` },
	};
}

/** The Operation selector of a resource, followed by the parameters of each of its operations. */
export function resourceDescription<R extends ErpResource>(
	resource: R,
	operations: ResourceModule<R>,
	defaultOperation: ErpOperations[R],
): INodeProperties[] {
	const names = labels(resource);
	const entries = Object.entries(operations) as Array<[string, ResourceModule<R>[ErpOperations[R]]]>;
	const options: INodePropertyOptions[] = entries
		.map(([value]) => ({ name: names[value].name, value, description: names[value].action, action: names[value].action }))
		.sort((a, b) => a.name.localeCompare(b.name));
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options,
			default: defaultOperation,
		},
		...entries.flatMap(([, operation]) => operation.description),
	];
}
