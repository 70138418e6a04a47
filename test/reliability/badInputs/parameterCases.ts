import { fieldsParameter } from '../../../tooling/host/fields';
import { byId } from '../../../tooling/host/workflows';
import { byIdFromData, type NodeCase } from './nodeCase';

const contact = (operation: string, rest: Record<string, unknown>) => ({ resource: 'contact', operation, ...rest });
const updateContact1 = (updateFields: Record<string, unknown>) => contact('update', { contactId: byId('1'), updateFields });
const newContact = (fields: Record<string, unknown>) => contact('create', { columns: fieldsParameter('contact', { first_name: 'Ada', ...fields }) });
const newEmployee = (fields: Record<string, unknown>) => ({
	resource: 'employee',
	operation: 'create',
	columns: fieldsParameter('employee', { first_name: 'Grace', last_name: 'Hopper', email: 'grace.hopper@reliability.example', ...fields }),
});
const newProduct = (fields: Record<string, unknown>) => ({ resource: 'product', operation: 'create', columns: fieldsParameter('product', { sku: 'CHAIR-1', name: 'Chair', ...fields }) });
const none: string[] = [];
const customCall = (method: string, path: string, rest: Record<string, unknown> = {}) => ({ resource: 'customApiCall', operation: 'call', method, path, ...rest });
// Lengths, ranges, formats and allowed values the API document leaves to the ERP: its 422 names the field.
const erpRefuses = (request: string, field: RegExp) => ({ field, fix: /Fix this field/, requests: [request] });

// n8n checks a typed field of the field mapper itself ("'salary' expects a number but we got 'lots'").
const numberFix = /must be a number|expects a number/;
const idFix = /enter the numeric ID|enter its ID|greater than 0|Pick the record from the list/;

/**
 * Parameters the node must refuse before sending anything (IDs, JSON, e-mail, phone, types, options), and values
 * only the ERP can judge, which must come back as its 422 naming the field.
 */
export const PARAMETER_CASES: NodeCase[] = [
	{ id: 'id-typed-text', title: 'Contact ID typed By ID: "abc"', parameters: contact('get', { contactId: byId('abc') }), expect: { field: /Contact ID/, fix: idFix, requests: none } },
	{ id: 'id-typed-zero', title: 'Contact ID typed By ID: 0', parameters: contact('get', { contactId: byId('0') }), expect: { field: /Contact ID/, fix: /greater than 0/, requests: none } },
	{ id: 'id-typed-decimal', title: 'Contact ID typed By ID: 4.5', parameters: contact('delete', { contactId: byId('4.5') }), expect: { field: /Contact ID/, fix: idFix, requests: none } },
	{ id: 'id-data-decimal', title: 'Contact ID from the data: 12.5', parameters: contact('get', { contactId: byIdFromData }), data: { id: 12.5 }, expect: { field: /Contact ID/, fix: idFix, requests: none } },
	{ id: 'id-data-negative', title: 'Contact ID from the data: -7', parameters: contact('update', { contactId: byIdFromData, updateFields: { company: 'X' } }), data: { id: -7 }, expect: { field: /Contact ID/, fix: /greater than 0/, requests: none } },
	{ id: 'id-data-huge-text', title: 'Contact ID from the data: "123456789012345678901234567890"', parameters: contact('get', { contactId: byIdFromData }), data: { id: '123456789012345678901234567890' }, expect: { field: /Contact ID/, fix: /too large/, requests: none } },
	{ id: 'id-data-huge-number', title: 'Contact ID from the data: the JSON number 1e30', parameters: contact('get', { contactId: byIdFromData }), data: { id: 1e30 }, expect: { field: /Contact ID/, fix: idFix, requests: none } },
	{ id: 'id-data-missing', title: 'Contact ID from the data, which has no id', parameters: contact('get', { contactId: byIdFromData }), data: { name: 'no id here' }, expect: { field: /Contact ID/, fix: idFix, requests: none } },
	{ id: 'extra-fields-invalid-json', title: 'Update Fields › Extra Fields (JSON): {first_name: Ada', parameters: updateContact1({ extraFields: '{first_name: Ada' }), expect: { field: /Extra Fields \(JSON\)/, fix: /JSON object such as|double quotes|not valid JSON/, requests: none } },
	{ id: 'extra-fields-array', title: 'Update Fields › Extra Fields (JSON): [1, 2]', parameters: updateContact1({ extraFields: '[1, 2]' }), expect: { field: /Extra Fields \(JSON\)/, fix: /JSON object such as/, requests: none } },
	{ id: 'update-empty', title: 'Update with no Update Fields', parameters: contact('update', { contactId: byId('1'), updateFields: {} }), expect: { field: /Update Fields/, fix: /add at least one field/i, requests: none } },
	{ id: 'update-blank-values', title: 'Update whose only field is blank', parameters: contact('update', { contactId: byId('1'), updateFields: { company: '  ' } }), expect: { field: /Update Fields/, fix: /add at least one field/i, requests: none } },
	{ id: 'first-name-empty', title: 'Create contact with an empty first_name (the ERP answers 422)', parameters: newContact({ first_name: '' }), expect: erpRefuses('POST /contacts 422', /first_name/) },
	{ id: 'email-typed-malformed', title: 'Fields › email typed: ada(at)example.com', parameters: newContact({ email: 'ada(at)example.com' }), expect: { field: /email/, fix: /name@example\.com/, requests: none } },
	{ id: 'email-data-malformed', title: 'Fields › email from the data: "ada@"', parameters: newContact({ email: '={{ $json.body.email }}' }), data: { email: 'ada@' }, expect: { field: /email/, fix: /name@example\.com/, requests: none } },
	{ id: 'phone-national-format', title: 'Fields › phone typed: 030 1234567 (no country code)', parameters: newContact({ phone: '030 1234567' }), expect: { field: /phone/, fix: /start with \+ and the country code/, requests: none } },
	{ id: 'phone-data-letters', title: 'Fields › phone from the data: "call me"', parameters: newContact({ phone: '={{ $json.body.phone }}' }), data: { phone: 'call me' }, expect: { field: /phone/, fix: /start with \+ and the country code/, requests: none } },
	{ id: 'salary-text', title: 'Fields › salary: "lots"', parameters: newEmployee({ salary: 'lots' }), expect: { field: /salary/, fix: numberFix, requests: none } },
	{ id: 'salary-data-text', title: 'Fields › salary from the data: "lots"', parameters: newEmployee({ salary: '={{ $json.body.salary }}' }), data: { salary: 'lots' }, expect: { field: /salary/, fix: numberFix, requests: none } },
	{ id: 'salary-negative', title: 'Fields › salary: -5000 (the ERP answers 422)', parameters: newEmployee({ salary: -5000 }), expect: erpRefuses('POST /employees 422', /salary/) },
	{ id: 'hire-date-text', title: 'Fields › hire_date: "next monday"', parameters: newEmployee({ hire_date: 'next monday' }), expect: { field: /hire_date/, fix: /use the form 2026-12-31|expects a dateTime/, requests: none } },
	{ id: 'currency-word', title: 'Fields › currency: "EURO" (the ERP answers 422)', parameters: newEmployee({ currency: 'EURO' }), expect: erpRefuses('POST /employees 422', /currency/) },
	{ id: 'sku-spaces', title: 'Product sku: "CHAIR OAK 01" (the ERP answers 422)', parameters: newProduct({ sku: 'CHAIR OAK 01' }), expect: erpRefuses('POST /products 422', /sku/) },
	{ id: 'threshold-fraction', title: 'Product low_stock_threshold: 2.5 (the ERP answers 422)', parameters: newProduct({ low_stock_threshold: 2.5 }), expect: erpRefuses('POST /products 422', /low_stock_threshold/) },
	{ id: 'invoice-line-negative-price', title: 'Invoice line Unit Price: -10 (the ERP answers 422)', parameters: { resource: 'invoice', operation: 'create', contactId: byId('1'), lineItems: { line: [{ description: 'Work', unitPrice: -10 }] } }, expect: erpRefuses('POST /invoices 422', /unit_price/) },
	{ id: 'invoice-no-lines', title: 'Invoice without lines (the ERP answers 422)', parameters: { resource: 'invoice', operation: 'create', contactId: byId('1') }, expect: erpRefuses('POST /invoices 422', /lines/) },
	{ id: 'custom-field-twice', title: 'Update Fields › Custom Fields with "vat_number" twice', parameters: updateContact1({ customFields: { field: [{ name: 'vat_number', value: 'DE1' }, { name: 'vat_number', value: 'DE2' }] } }), expect: { field: /Custom Fields/, fix: /keep one/, requests: none } },
	{ id: 'filter-date-text', title: 'Filter Created After: "last week"', parameters: contact('getAll', { filters: { createdAfter: 'last week' } }), expect: { field: /Created After/, fix: /use the form 2026-12-31T14:30:00Z/, requests: none } },
	{ id: 'query-parameter-page', title: 'Query Parameters setting "page"', parameters: contact('getAll', { filters: { queryParameters: { parameter: [{ name: 'page', value: '2' }] } } }), expect: { field: /Query Parameters/, fix: /Return All or Limit/, requests: none } },
	{ id: 'custom-call-path-leaves', title: 'Custom API Call Path from the data: "/orders/%2e%2e/contacts"', parameters: customCall('GET', '={{ $json.body.path }}'), data: { path: '/orders/%2e%2e/contacts' }, expect: { field: /Path/, fix: /below the Base URL/, requests: none } },
	{ id: 'custom-call-full-url', title: 'Custom API Call Path: "https://evil.example/api/v1/contacts"', parameters: customCall('GET', 'https://evil.example/api/v1/contacts'), expect: { field: /Path/, fix: /only the part after the Base URL/, requests: none } },
	{ id: 'custom-call-body-not-json', title: 'Custom API Call Body: {reference: SO-1', parameters: customCall('POST', '/contacts', { body: '{reference: SO-1' }), expect: { field: /Body/, fix: /not valid JSON|double quotes/, requests: none } },
	{ id: 'limit-zero', title: 'Limit: 0', parameters: contact('getAll', { returnAll: false, limit: 0 }), expect: { field: /Limit/, fix: /whole number of 1 or more/, requests: none } },
	{ id: 'concurrency-500', title: 'Options › Concurrency: 500', parameters: contact('get', { contactId: byId('1'), options: { concurrency: 500 } }), expect: { field: /Concurrency/, fix: /from 1 to 50/, requests: none } },
	{ id: 'timeout-negative', title: 'Options › Timeout: -1', parameters: contact('get', { contactId: byId('1'), options: { timeout: -1 } }), expect: { field: /Timeout/, fix: /whole number from 1/, requests: none } },
];
