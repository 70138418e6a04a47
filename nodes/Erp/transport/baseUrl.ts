/**
 * The one place that turns the credential's Base URL into the prefix of every request.
 * Returns an error sentence instead of throwing, so the caller can raise it with its own node context.
 */
export function normalizeBaseUrl(raw: unknown): { url: string } | { problem: string } {
	const value = typeof raw === 'string' ? raw.trim() : '';
	if (value === '') {
		return { problem: 'The ERP API credential has no Base URL: enter e.g. https://erp.example.com/api/v1' };
	}
	let parsed: URL;
	try {
		parsed = new URL(value);
	} catch {
		return {
			problem: `The Base URL "${value}" is not a web address: start it with https:// (e.g. https://erp.example.com/api/v1)`,
		};
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		return {
			problem: `The Base URL "${value}" must start with http:// or https:// (e.g. https://erp.example.com/api/v1)`,
		};
	}
	if (parsed.search || parsed.hash) {
		return { problem: `The Base URL "${value}" must not contain ? or #: use e.g. https://erp.example.com/api/v1` };
	}
	return { url: value.replace(/\/+$/, '') };
}

/** Whether the Base URL ends with the version segment the API document puts in every base address. */
export function hasVersionSegment(baseUrl: string): boolean {
	return /\/api\/v1$/.test(baseUrl);
}
