import type { FieldSpecs } from '../common/fields';
import { recordActionOperation } from '../common/recordOperations';

const payment: FieldSpecs = {
	paidAt: {
		apiName: 'paid_at',
		kind: 'dateTime',
		property: {
			displayName: 'Paid At',
			name: 'paidAt',
			type: 'dateTime',
			default: '',
			description: 'When the payment arrived; the ERP uses now when empty. Not in the future.',
		},
	},
	paymentMethod: {
		apiName: 'payment_method',
		kind: 'text',
		property: {
			displayName: 'Payment Method',
			name: 'paymentMethod',
			type: 'options',
			default: 'bank_transfer',
			options: [
				{ name: 'Bank Transfer', value: 'bank_transfer' },
				{ name: 'Card', value: 'card' },
				{ name: 'Cash', value: 'cash' },
				{ name: 'Other', value: 'other' },
			],
		},
	},
	reference: {
		apiName: 'reference',
		kind: 'text',
		property: {
			displayName: 'Reference',
			name: 'reference',
			type: 'string',
			default: '',
			description: 'For example the bank transaction ID',
		},
	},
};

export const { description, execute } = recordActionOperation('invoice', 'markPaid', 'mark-paid', 'The invoice that was paid', payment);
