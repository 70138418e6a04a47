export interface Match<H> {
	handler: H;
	params: Record<string, string>;
}

/**
 * Method + path patterns such as `/contacts/:id`. `:id` matches a positive integer only (so `/contacts/abc`
 * is an unknown route); any other `:name` matches one path segment.
 */
export class Router<H> {
	private routes: Array<{ method: string; parts: string[]; handler: H }> = [];

	on(method: string, pattern: string, handler: H): this {
		this.routes.push({ method, parts: pattern.split('/').filter(Boolean), handler });
		return this;
	}

	match(method: string, path: string): Match<H> | null {
		const segments = path.split('/').filter(Boolean);
		for (const route of this.routes) {
			if (route.method !== method || route.parts.length !== segments.length) continue;
			const params: Record<string, string> = {};
			const ok = route.parts.every((part, i) => {
				const segment = segments[i];
				if (!part.startsWith(':')) return part === segment;
				if (part === ':id' && !/^[1-9]\d{0,14}$/.test(segment)) return false;
				params[part.slice(1)] = segment;
				return true;
			});
			if (ok) return { handler: route.handler, params };
		}
		return null;
	}
}
