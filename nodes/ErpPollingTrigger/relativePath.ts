import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** How a path parameter is named in its errors, and what to do about a query in it. */
export interface PathField {
	/** The parameter's name, e.g. List Path. */
	field: string;
	/** A path that fits, e.g. /orders. */
	example: string;
	/** Where filters go instead of a query string, e.g. "put them in Query Parameters". */
	queryFix: string;
	itemIndex?: number;
}

/** The text and its percent-decoded forms (decoded up to twice more, so %252e is seen as a dot); undefined if malformed. */
function decodedForms(path: string): string[] | undefined {
	const forms = [path];
	try {
		for (let i = 0; i < 2; i++) forms.push(decodeURIComponent(forms[forms.length - 1]));
	} catch {
		return undefined;
	}
	return forms;
}

/**
 * A path below the credential's Base URL, as typed by the user, checked before any request: it must start with a
 * single /, and may not be a full URL, leave the Base URL (a . or .. segment, also percent-encoded), hold a backslash,
 * a query or fragment, or control characters. Returns the path trimmed; throws an error naming the field and the fix.
 */
export function checkRelativePath(node: INode, raw: unknown, { field, example, queryFix, itemIndex }: PathField): string {
	const path = typeof raw === 'string' ? raw.trim() : '';
	const fail = (problem: string) =>
		new NodeOperationError(node, `${field} ${problem}`, { itemIndex, failure: { cause: 'configuration-invalid' } });
	const below = `the path below the Base URL of the ERP API credential, e.g. ${example}`;
	if (path === '') throw fail(`is empty: enter ${below}`);
	if (/^[a-z][a-z\d+.-]*:/i.test(path)) throw fail(`is a full URL: enter only ${below}`);
	if (path.startsWith('//')) throw fail(`starts with //, which names another server: enter ${below}`);
	if (!path.startsWith('/')) throw fail(`must start with /: enter ${below}`);
	const forms = decodedForms(path);
	if (!forms) throw fail(`has a % that is not followed by two hexadecimal digits: write a % as %25, e.g. ${example}`);
	for (const form of forms) {
		if ([...form].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) throw fail(`has a control character (a line break or tab): enter ${below}`);
		if (form.includes('\\')) throw fail(`has a backslash: separate its parts with /, e.g. ${example}`);
		if (form.split('/').some((segment) => segment === '.' || segment === '..')) {
			throw fail(`has a . or .. part, which would leave the Base URL: enter ${below}`);
		}
	}
	if (/[?#]/.test(path)) throw fail(`has a query (? or #): enter the path alone, e.g. ${example}, and ${queryFix}`);
	return path;
}
