import type { FieldSpecs } from '../common/fields';
import { recordActionOperation } from '../common/recordOperations';

const recipient: FieldSpecs = {
	email: {
		apiName: 'email',
		kind: 'email',
		property: {
			displayName: 'Recipient Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@example.com',
			default: '',
			description: "Where to send the invoice; the ERP uses the contact's email when empty",
		},
	},
};

export const { description, execute } = recordActionOperation('invoice', 'send', 'send', 'The invoice to send', recipient);
