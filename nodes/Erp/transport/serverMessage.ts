/**
 * Reads what a failed answer says, whatever its shape: the documented-by-us
 * `{error: {message, fields}}`, or `{message}`, `{error: "…"}`, `{errors: [...]}`, `{errors: {field: [...]}}`,
 * `{detail}`, an HTML page, plain text, or nothing.
 */

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (Array.isArray(value)) {
		const parts = value.map(text).filter((part): part is string => part !== undefined);
		return parts.length ? parts.join(', ') : undefined;
	}
	return undefined;
}

function fromHtml(html: string): string {
	const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim();
	const stripped = html
		.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
		.replace(/<[^>]+>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return `an HTML page: ${title || stripped.slice(0, 120) || '(empty)'}`;
}

/** Field → messages, from any of the usual validation-error shapes. */
export function fieldMessages(body: unknown): Array<[string, string]> {
	if (!isObject(body)) return [];
	const candidates: unknown[] = [
		isObject(body.error) ? body.error.fields : undefined,
		isObject(body.error) ? body.error.details : undefined,
		body.fields,
		body.errors,
	];
	for (const candidate of candidates) {
		if (Array.isArray(candidate)) {
			const pairs = candidate
				.filter(isObject)
				.map((entry): [string, string] | undefined => {
					const field = text(entry.field) ?? text(entry.path) ?? text(entry.name);
					const message = text(entry.message) ?? text(entry.msg);
					return field && message ? [field, message] : undefined;
				})
				.filter((pair): pair is [string, string] => pair !== undefined);
			if (pairs.length) return pairs;
		} else if (isObject(candidate)) {
			const pairs = Object.entries(candidate)
				.map(([field, messages]): [string, string] | undefined => {
					const message = text(messages);
					return message ? [field, message] : undefined;
				})
				.filter((pair): pair is [string, string] => pair !== undefined);
			if (pairs.length) return pairs;
		}
	}
	return [];
}

/** The service's own sentence about the failure, or undefined when it gave none. */
export function serverMessage(body: unknown): string | undefined {
	if (typeof body === 'string') {
		const trimmed = body.trim();
		if (trimmed === '') return undefined;
		if (/^\s*</.test(trimmed)) return fromHtml(trimmed);
		return trimmed.slice(0, 300);
	}
	if (!isObject(body)) return undefined;
	const error = body.error;
	return (
		(isObject(error) ? (text(error.message) ?? text(error.detail)) : text(error)) ??
		text(body.message) ??
		text(body.detail) ??
		text(body.title) ??
		text(body.error_description) ??
		(Array.isArray(body.errors) ? text(body.errors) : undefined)
	);
}
