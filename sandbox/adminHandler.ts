import type { ServerResponse } from 'node:http';

import type { SandboxState } from './state';
import type { JsonObject } from './types';

/** What the admin routes need from the server around them. */
export interface Lifecycle {
	/** Closes the listener now, drops every connection once `current` is answered, listens again after downMs. */
	restart(downMs: number, current: ServerResponse): void;
}

export interface AdminContext {
	state: SandboxState;
	params: Record<string, string>;
	query: URLSearchParams;
	body: JsonObject;
	lifecycle: Lifecycle;
	res: ServerResponse;
}

export type AdminHandler = (ctx: AdminContext) => unknown;
