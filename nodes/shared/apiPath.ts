export const EXAMPLE = 'e.g. /orders or /orders/42';

/** What is wrong with a path, and how to fix it. */
export interface PathProblem {
	problem: string;
	fix: string;
}

/** Percent-decoded again and again (a server or proxy may decode twice) until nothing changes or it is no longer valid. */
function decoded(text: string): string {
	let current = text;
	for (let round = 0; round < 5; round++) {
		let next: string;
		try {
			next = decodeURIComponent(current);
		} catch {
			return current;
		}
		if (next === current) return current;
		current = next;
	}
	return current;
}

/** Whether a segment is `.` or `..` as a server may read it: decoded, split again at decoded slashes, without `;…` parameters. */
const hasDotSegment = (segment: string) =>
	decoded(segment)
		.split(/[/\\]/)
		.some((part) => ['.', '..'].includes(part.split(';')[0]));

/**
 * Why a path would not stay below the credential's Base URL, or undefined when it does (the Custom API Call's Path, the
 * polling trigger's List Path). The path is appended to the Base URL as it is, so it must start with one slash and
 * may not climb out (`..`, also percent-encoded) nor name another host (`//host`, a full URL, backslashes that some
 * servers read as slashes). `queryFix` says where a query goes instead.
 */
export function pathProblem(path: string, queryFix = 'Give query parameters under Query Parameters, and the path alone here.', example = EXAMPLE): PathProblem | undefined {
	const relative = `Enter only the part after the Base URL of the ERP API credential, ${example}.`;
	const plain = decoded(path);
	if (path === '') return { problem: 'is empty', fix: `Enter the endpoint's path below the Base URL, ${example}.` };
	if (/%(?![\da-f]{2})/i.test(path)) {
		return { problem: 'has a % that is not followed by two hexadecimal digits', fix: `Write a % as %25, ${example}.` };
	}
	if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return { problem: `"${path}" is a full URL, not a path below the Base URL`, fix: relative };
	if (!path.startsWith('/')) return { problem: `"${path}" must start with /`, fix: `Write it as /${path.replace(/^\.?\/*/, '')} (${example}).` };
	if (path.startsWith('//')) return { problem: `"${path}" starts with //, which names another host`, fix: relative };
	if (plain.includes('\\')) return { problem: `"${path}" contains a backslash`, fix: `Use / between the parts of the path, ${example}.` };
	if ([...plain].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127)) {
		return { problem: 'contains a control character (such as a line break)', fix: `Remove it, ${example}.` };
	}
	if (/[?#]/.test(path)) {
		return { problem: `"${path}" contains ${path.includes('?') ? '?' : '#'}`, fix: queryFix };
	}
	if (path.split('/').some(hasDotSegment)) {
		return { problem: `"${path}" contains a . or .. segment, which would leave the Base URL's path`, fix: `Name the endpoint below the Base URL directly, ${example}.` };
	}
	return undefined;
}

/** Whether `baseUrl + path` still has the Base URL's origin and lies below its path (the check behind pathProblem's rules). */
export function staysBelow(baseUrl: string, path: string): boolean {
	if (!URL.canParse(baseUrl + path)) return false;
	const base = new URL(baseUrl);
	const target = new URL(baseUrl + path);
	const basePath = base.pathname.replace(/\/+$/, '');
	return target.origin === base.origin && target.pathname.startsWith(`${basePath}/`);
}
