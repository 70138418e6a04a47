import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { optionsProperty, resourceProperty } from './actions/common.descriptions';
import { description as contact } from './actions/contact/Contact.resource';
import { description as customApiCall, resourceOption as customApiCallResource } from './actions/custom/CustomApiCall.resource';
import { description as employee } from './actions/employee/Employee.resource';
import { description as invoice } from './actions/invoice/Invoice.resource';
import { description as product } from './actions/product/Product.resource';
import { router } from './actions/router';
import { searchContacts, searchEmployees, searchInvoices, searchProducts } from './methods/listSearch';
import { getContactFields, getEmployeeFields, getProductFields } from './methods/resourceMapping';

export class Erp implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'ERP',
		name: 'erp',
		icon: { light: 'file:erp.svg', dark: 'file:erp.dark.svg' },
		group: ['transform'],
		// 1: the node released in 0.1.0, kept for the workflows built with it: a write outputs the ERP's answer as it came,
		// Delete the ERP's answer, Get and Get Many have no Simplify. 1.1, what a new node gets: a write outputs the fields
		// sent under the ERP's answer, Delete n8n's confirmation, Get and Get Many have Simplify (actions/shared/version.ts).
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle:
			'={{$parameter["resource"] === "customApiCall" ? $parameter["method"] + " " + $parameter["path"] : $parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Work with contacts, invoices, products with stock, and employees with payroll in the ERP, or call any endpoint of its API',
		defaults: { name: 'ERP' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'erpApi', required: true }],
		properties: [
			resourceProperty('contact', [customApiCallResource]),
			...contact,
			...invoice,
			...product,
			...employee,
			...customApiCall,
			optionsProperty,
		],
	};

	methods = {
		listSearch: { searchContacts, searchEmployees, searchInvoices, searchProducts },
		resourceMapping: { getContactFields, getEmployeeFields, getProductFields },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
