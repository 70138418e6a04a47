import { contactFields } from '../../nodes/Erp/actions/contact/fields';
import { employeeFields } from '../../nodes/Erp/actions/employee/fields';
import { productFields } from '../../nodes/Erp/actions/product/fields';
import { knownColumns } from '../../nodes/Erp/actions/shared/columns';

const FIELDS = { contact: contactFields, product: productFields, employee: employeeFields };

/** The ERP node's Fields parameter (n8n's resource mapper) as the editor saves it: the mode, the values and the field list it showed. */
export function fieldsParameter(resource: keyof typeof FIELDS, value: Record<string, unknown> | null, mappingMode = 'defineBelow') {
	return { mappingMode, value, matchingColumns: [], schema: knownColumns(FIELDS[resource]), attemptToConvertTypes: false, convertFieldsToString: false };
}
