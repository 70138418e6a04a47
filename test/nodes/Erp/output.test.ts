import { SIMPLIFIED_MAX_FIELDS, selected, simplified } from '../../../nodes/Erp/actions/shared/output';
import { shownUrl } from '../../../nodes/shared/transport/errors';

describe('Simplified and Selected Fields output', () => {
	it("keeps an ERP's records useful when they name fields otherwise: the known ones first, then its own plain fields, nested ones flattened", () => {
		const record = {
			uuid: 'c-1',
			id: 7,
			display_name: 'Ada Lovelace',
			email: 'ada@example.com',
			address: { city: 'London', country: 'GB', lines: ['12 St James Sq'] },
			tags: ['vip'],
			a: 1,
			b: 2,
			c: 3,
			d: 4,
			e: 5,
			f: 6,
		};
		expect(simplified('contact', record)).toEqual({
			id: 7,
			email: 'ada@example.com',
			uuid: 'c-1',
			display_name: 'Ada Lovelace',
			'address.city': 'London',
			'address.country': 'GB',
			a: 1,
			b: 2,
			c: 3,
			d: 4,
		});
		expect(Object.keys(simplified('contact', record))).toHaveLength(SIMPLIFIED_MAX_FIELDS);
	});

	it('Selected Fields: the ID always, nested names by their dotted path, names the record lacks left out', () => {
		const record = { id: 3, email: 'a@b.co', custom_fields: { vat_number: 'DE1' }, company: null };
		expect(selected(record, ['custom_fields.vat_number', 'company', 'missing'])).toEqual({ id: 3, 'custom_fields.vat_number': 'DE1', company: null });
	});
});

describe('URLs in error texts', () => {
	it('lose a user, a password and a query, keep host and path', () => {
		expect(shownUrl('Nothing answers at https://bob:pw@erp.example.com:8443/api/v1?token=abc&x=1/contacts (404). Why? Ask')).toBe(
			'Nothing answers at https://erp.example.com:8443/api/v1 (404). Why? Ask',
		);
		expect(shownUrl('The Base URL "http://u@h/x?key=1" is wrong')).toBe('The Base URL "http://h/x" is wrong');
		expect(shownUrl('plain text, an e-mail bob@example.com and a question?')).toBe('plain text, an e-mail bob@example.com and a question?');
	});
});
