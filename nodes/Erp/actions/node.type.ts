import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ErpClient } from '../../shared/transport/client';

/** The resource → operation map the router dispatches on (the compiler keeps it in step with the resource files). */
export interface ErpOperations {
	contact: 'create' | 'delete' | 'get' | 'getAll' | 'update' | 'upsert';
	invoice: 'create' | 'get' | 'getAll' | 'markPaid' | 'send';
	product: 'create' | 'get' | 'getAll' | 'getStock' | 'update' | 'upsert';
	employee: 'create' | 'createIfNew' | 'get' | 'getAll' | 'getPayroll';
	customApiCall: 'call';
}

export type ErpResource = keyof ErpOperations;

export interface OperationModule {
	description: INodeProperties[];
	/** Runs the operation for one input item and returns the JSON of its output items. */
	execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]>;
}

export type ResourceOperations<R extends ErpResource> = Record<ErpOperations[R], OperationModule>;
