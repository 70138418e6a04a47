import type { ListRequest, PageMeta } from '../listing';
import type { SandboxState } from '../state';
import type { JsonObject } from '../types';

export interface ApiContext extends ListRequest {
	state: SandboxState;
	/** The `:id` of the path, 0 when the route has none. */
	id: number;
	/** The JSON body of a POST/PUT/PATCH (an empty body reads as {}); {} for other methods. */
	body: JsonObject;
}

export interface ApiResult {
	status?: number;
	data?: unknown;
	meta?: PageMeta;
	/** Set by creates: the new record's path below /api/v1 (the Location a bare-create answer names). */
	created?: string;
}

export type ApiHandler = (ctx: ApiContext) => ApiResult;
