import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ErpClient } from '../transport/client';

export type ErpResource = 'contact' | 'invoice' | 'product' | 'employee';

/** The resource → operation map the router dispatches on (kept in step with the resource folders by the compiler). */
export interface ErpOperations {
	contact: 'create' | 'get' | 'getAll' | 'update' | 'delete';
	invoice: 'create' | 'get' | 'getAll' | 'send' | 'markPaid';
	product: 'create' | 'get' | 'getAll' | 'update' | 'getStock';
	employee: 'create' | 'get' | 'getAll' | 'getPayroll';
}

/** One operation runs for one input item and returns the JSON of its output items. */
export type OperationExecute = (this: IExecuteFunctions, client: ErpClient, itemIndex: number) => Promise<IDataObject[]>;

export interface OperationModule {
	description: INodeProperties[];
	execute: OperationExecute;
}

export type ResourceModule<R extends ErpResource> = Record<ErpOperations[R], OperationModule>;
