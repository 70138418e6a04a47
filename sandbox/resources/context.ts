import type { PageMeta } from '../listing';
import type { SandboxState } from '../state';
import type { JsonObject } from '../types';

export interface ApiContext {
	state: SandboxState;
	/** The `:id` of the path, 0 when the route has none. */
	id: number;
	query: URLSearchParams;
	/** The JSON body of a POST/PUT (an empty body reads as {}); {} for other methods. */
	body: JsonObject;
}

export interface ApiResult {
	status?: number;
	data: unknown;
	meta?: PageMeta;
}

export type ApiHandler = (ctx: ApiContext) => ApiResult;
