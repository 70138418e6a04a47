import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkRelativePath } from '../../../nodes/ErpPollingTrigger/relativePath';

const node = { name: 'ERP Polling Trigger' } as INode;
const field = { field: 'List Path', example: '/orders', queryFix: 'filter the records in the workflow' };
const check = (path: unknown) => checkRelativePath(node, path, field);

/** The path rule any parameter naming an ERP path below the Base URL shares: relative, and never leaving the Base URL. */
describe('checkRelativePath', () => {
	it.each(['/orders', ' /orders ', '/orders/42/lines', '/credit-notes', '/orders/', '/aufträge', '/orders/SO%2D1', '/v2.1/orders', '/orders/.well'])(
		'accepts %j',
		(path) => {
			expect(check(path)).toBe(path.trim());
		},
	);

	const refused: Array<[string, unknown, RegExp]> = [
		['empty', '  ', /^List Path is empty: enter the path below the Base URL of the ERP API credential, e.g. \/orders$/],
		['not text', undefined, /^List Path is empty/],
		['a full URL', 'https://erp.example.com/api/v1/orders', /^List Path is a full URL: enter only the path below the Base URL/],
		['a full URL of another scheme', 'file:///etc/passwd', /^List Path is a full URL/],
		['another server', '//evil.example.com/orders', /^List Path starts with \/\/, which names another server/],
		['no leading slash', 'orders', /^List Path must start with \/: enter the path below/],
		['a .. segment', '/orders/../admin', /^List Path has a \. or \.\. part, which would leave the Base URL/],
		['a trailing ..', '/orders/..', /has a \. or \.\. part/],
		['a . segment', '/./orders', /has a \. or \.\. part/],
		['a percent-encoded ..', '/orders/%2e%2E/admin', /has a \. or \.\. part/],
		['a half-encoded ..', '/orders/.%2e', /has a \. or \.\. part/],
		['a doubly encoded ..', '/orders/%252e%252e/admin', /has a \. or \.\. part/],
		['an encoded slash making a .. segment', '/orders/..%2fadmin', /has a \. or \.\. part/],
		['a backslash', '/orders\\..\\admin', /^List Path has a backslash: separate its parts with \/, e.g. \/orders$/],
		['an encoded backslash', '/orders%5cadmin', /has a backslash/],
		['a query', '/orders?status=open', /^List Path has a query \(\? or #\): enter the path alone, e.g. \/orders, and filter the records in the workflow$/],
		['a fragment', '/orders#top', /has a query/],
		['a line break', '/orders\r\nX-Injected: 1', /has a control character/],
		['an encoded line break', '/orders%0d%0a', /has a control character/],
		['a malformed percent', '/orders%zz', /^List Path has a % that is not followed by two hexadecimal digits: write a % as %25/],
	];

	it.each(refused)('refuses %s, naming the field and the fix, as a configuration to fix', (_, path, message) => {
		let thrown: unknown;
		try {
			check(path);
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(NodeOperationError);
		expect((thrown as NodeOperationError).message).toMatch(message);
		expect((thrown as NodeOperationError).failure).toEqual({ cause: 'configuration-invalid' });
	});

	it('never echoes what was typed (a pasted URL may carry a key)', () => {
		expect(() => check('https://erp.example.com/orders?api_key=secret')).toThrow(/^List Path is a full URL/);
		expect(() => check('https://erp.example.com/orders?api_key=secret')).not.toThrow(/secret/);
	});

	it('names the item when given one (an action node item)', () => {
		let thrown: NodeOperationError | undefined;
		try {
			checkRelativePath(node, '/a?b', { field: 'Path', example: '/orders/42', queryFix: 'put the query in Query Parameters', itemIndex: 3 });
		} catch (error) {
			thrown = error as NodeOperationError;
		}
		expect(thrown?.message).toBe('Path has a query (? or #): enter the path alone, e.g. /orders/42, and put the query in Query Parameters');
		expect(thrown?.context.itemIndex).toBe(3);
	});
});
