import { byId, byIdFromData, type NodeCase } from './nodeCase';

const contact = (operation: string, rest: Record<string, unknown>) => ({ resource: 'contact', operation, ...rest });
const newContact = (rest: Record<string, unknown>) => contact('create', { firstName: 'Ada', ...rest });
const newEmployee = (additionalFields: Record<string, unknown>) => ({
	resource: 'employee',
	operation: 'create',
	firstName: 'Grace',
	lastName: 'Hopper',
	email: 'grace.hopper@reliability.example',
	additionalFields,
});
const none: string[] = [];

const idFix = /enter the numeric ID|enter its ID|greater than 0|Pick the record from the list/;

/** Parameters the node must refuse before sending anything: IDs, JSON, e-mail, phone, types, options. */
export const PARAMETER_CASES: NodeCase[] = [
	{ id: 'id-typed-text', title: 'Contact ID typed By ID: "abc"', parameters: contact('get', { contactId: byId('abc') }), expect: { field: /Contact ID/, fix: idFix, requests: none } },
	{ id: 'id-typed-zero', title: 'Contact ID typed By ID: 0', parameters: contact('get', { contactId: byId('0') }), expect: { field: /Contact ID/, fix: /greater than 0/, requests: none } },
	{ id: 'id-typed-decimal', title: 'Contact ID typed By ID: 4.5', parameters: contact('delete', { contactId: byId('4.5') }), expect: { field: /Contact ID/, fix: idFix, requests: none } },
	{ id: 'id-data-decimal', title: 'Contact ID from the data: 12.5', parameters: contact('get', { contactId: byIdFromData }), data: { id: 12.5 }, expect: { field: /Contact ID/, fix: idFix, requests: none } },
	{ id: 'id-data-negative', title: 'Contact ID from the data: -7', parameters: contact('update', { contactId: byIdFromData, updateFields: { company: 'X' } }), data: { id: -7 }, expect: { field: /Contact ID/, fix: /greater than 0/, requests: none } },
	{ id: 'id-data-huge-text', title: 'Contact ID from the data: "123456789012345678901234567890"', parameters: contact('get', { contactId: byIdFromData }), data: { id: '123456789012345678901234567890' }, expect: { field: /Contact ID/, fix: /too large/, requests: none } },
	{ id: 'id-data-huge-number', title: 'Contact ID from the data: the JSON number 1e30', parameters: contact('get', { contactId: byIdFromData }), data: { id: 1e30 }, expect: { field: /Contact ID/, fix: idFix, requests: none } },
	{ id: 'id-data-missing', title: 'Contact ID from the data, which has no id', parameters: contact('get', { contactId: byIdFromData }), data: { name: 'no id here' }, expect: { field: /Contact ID/, fix: idFix, requests: none } },
	{ id: 'extra-fields-invalid-json', title: 'Extra Fields (JSON): {first_name: Ada', parameters: newContact({ additionalFields: { extraFields: '{first_name: Ada' } }), expect: { field: /Extra Fields \(JSON\)/, fix: /JSON object such as|double quotes/, requests: none } },
	{ id: 'extra-fields-array', title: 'Extra Fields (JSON): [1, 2]', parameters: newContact({ additionalFields: { extraFields: '[1, 2]' } }), expect: { field: /Extra Fields \(JSON\)/, fix: /JSON object such as/, requests: none } },
	{ id: 'update-empty', title: 'Update with no Update Fields', parameters: contact('update', { contactId: byId('1'), updateFields: {} }), expect: { field: /Update Fields/, fix: /add at least one field/i, requests: none } },
	{ id: 'update-blank-values', title: 'Update whose only field is blank', parameters: contact('update', { contactId: byId('1'), updateFields: { company: '  ' } }), expect: { field: /Update Fields/, fix: /add at least one field/i, requests: none } },
	{ id: 'first-name-empty', title: 'Create contact with an empty First Name', parameters: newContact({ firstName: '' }), expect: { field: /First Name/, fix: /is required/, requests: none } },
	{ id: 'email-typed-malformed', title: 'Email typed: ada(at)example.com', parameters: newContact({ email: 'ada(at)example.com' }), expect: { field: /Email/, fix: /name@example\.com/, requests: none } },
	{ id: 'email-data-malformed', title: 'Email from the data: "ada@"', parameters: newContact({ email: '={{ $json.body.email }}' }), data: { email: 'ada@' }, expect: { field: /Email/, fix: /name@example\.com/, requests: none } },
	{ id: 'phone-national-format', title: 'Phone typed: 030 1234567 (no country code)', parameters: newContact({ phone: '030 1234567' }), expect: { field: /Phone/, fix: /start with \+ and the country code/, requests: none } },
	{ id: 'phone-data-letters', title: 'Phone from the data: "call me"', parameters: newContact({ phone: '={{ $json.body.phone }}' }), data: { phone: 'call me' }, expect: { field: /Phone/, fix: /start with \+ and the country code/, requests: none } },
	{ id: 'salary-text', title: 'Additional Fields › Salary: "lots"', parameters: newEmployee({ salary: 'lots' }), expect: { field: /Salary/, fix: /must be a number greater than 0/, requests: none } },
	{ id: 'salary-data-text', title: 'Additional Fields › Salary from the data: "lots"', parameters: newEmployee({ salary: '={{ $json.body.salary }}' }), data: { salary: 'lots' }, expect: { field: /Salary/, fix: /must be a number greater than 0/, requests: none } },
	{ id: 'salary-negative', title: 'Additional Fields › Salary: -5000', parameters: newEmployee({ salary: -5000 }), expect: { field: /Salary/, fix: /must be a number greater than 0/, requests: none } },
	{ id: 'hire-date-text', title: 'Additional Fields › Hire Date: "next monday"', parameters: newEmployee({ hireDate: 'next monday' }), expect: { field: /Hire Date/, fix: /use the form 2026-12-31/, requests: none } },
	{ id: 'currency-word', title: 'Additional Fields › Currency: "EURO"', parameters: newEmployee({ currency: 'EURO' }), expect: { field: /Currency/, fix: /three letters such as EUR/, requests: none } },
	{ id: 'sku-spaces', title: 'Product SKU: "CHAIR OAK 01"', parameters: { resource: 'product', operation: 'create', sku: 'CHAIR OAK 01', name: 'Oak chair' }, expect: { field: /SKU/, fix: /letters, digits/, requests: none } },
	{ id: 'threshold-fraction', title: 'Product Low Stock Threshold: 2.5', parameters: { resource: 'product', operation: 'create', sku: 'CHAIR-1', name: 'Chair', additionalFields: { lowStockThreshold: 2.5 } }, expect: { field: /Low Stock Threshold/, fix: /whole number of 0 or more/, requests: none } },
	{ id: 'invoice-line-negative-price', title: 'Invoice line Unit Price: -10', parameters: { resource: 'invoice', operation: 'create', contactId: byId('1'), lineItems: { line: [{ description: 'Work', unitPrice: -10 }] } }, expect: { field: /Unit Price/, fix: /number of 0 or more/, requests: none } },
	{ id: 'invoice-no-lines', title: 'Invoice without lines', parameters: { resource: 'invoice', operation: 'create', contactId: byId('1') }, expect: { field: /Line Items/, fix: /add at least one/, requests: none } },
	{ id: 'custom-field-twice', title: 'Custom Fields with "vat_number" twice', parameters: newContact({ additionalFields: { customFields: { field: [{ name: 'vat_number', value: 'DE1' }, { name: 'vat_number', value: 'DE2' }] } } }), expect: { field: /Custom Fields/, fix: /keep one/, requests: none } },
	{ id: 'filter-date-text', title: 'Filter Created After: "last week"', parameters: contact('getAll', { filters: { createdAfter: 'last week' } }), expect: { field: /Created After/, fix: /use the form 2026-12-31T14:30:00Z/, requests: none } },
	{ id: 'query-parameter-page', title: 'Query Parameters setting "page"', parameters: contact('getAll', { filters: { queryParameters: { parameter: [{ name: 'page', value: '2' }] } } }), expect: { field: /Query Parameters/, fix: /Return All or Limit/, requests: none } },
	{ id: 'limit-zero', title: 'Limit: 0', parameters: contact('getAll', { returnAll: false, limit: 0 }), expect: { field: /Limit/, fix: /whole number of 1 or more/, requests: none } },
	{ id: 'concurrency-500', title: 'Options › Concurrency: 500', parameters: contact('get', { contactId: byId('1'), options: { concurrency: 500 } }), expect: { field: /Concurrency/, fix: /from 1 to 50/, requests: none } },
	{ id: 'timeout-negative', title: 'Options › Timeout: -1', parameters: contact('get', { contactId: byId('1'), options: { timeout: -1 } }), expect: { field: /Timeout/, fix: /whole number from 1/, requests: none } },
];
