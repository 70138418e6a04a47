/** JSON indented by two, with an object or array of plain values on one line: a file of figures whose diff reads. */
export function compactJson(value: unknown, indent = ''): string {
	if (value === null || typeof value !== 'object') return JSON.stringify(value);
	const isArray = Array.isArray(value);
	const entries: Array<[string | undefined, unknown]> = isArray
		? value.map((item: unknown) => [undefined, item])
		: Object.entries(value).filter(([, item]) => item !== undefined);
	const inner = `${indent}  `;
	const items = entries.map(([key, item]) => `${key === undefined ? '' : `${JSON.stringify(key)}: `}${compactJson(item, inner)}`);
	const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
	if (entries.every(([, item]) => item === null || typeof item !== 'object')) return `${open}${items.join(', ')}${close}`;
	return `${open}\n${items.map((item) => `${inner}${item}`).join(',\n')}\n${indent}${close}`;
}
