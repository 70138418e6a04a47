import { STATUS_CODES } from 'node:http';

export type FieldMessages = Record<string, string[]>;

const CODES: Record<number, string> = {
	400: 'bad_request',
	401: 'unauthorized',
	403: 'forbidden',
	404: 'not_found',
	422: 'validation_failed',
	429: 'rate_limited',
};

export const errorCode = (status: number): string => CODES[status] ?? (status >= 500 ? 'server_error' : 'error');

export interface ErrorBody {
	success: false;
	error: { code: string; message: string; fields?: FieldMessages };
}

export function errorBody(status: number, message: string, fields?: FieldMessages): ErrorBody {
	return { success: false, error: { code: errorCode(status), message, ...(fields ? { fields } : {}) } };
}

/** A failure a handler reports; the pipeline turns it into the error envelope. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly fields?: FieldMessages,
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}

	get body(): ErrorBody {
		return errorBody(this.status, this.message, this.fields);
	}
}

export const badRequest = (message: string): ApiError => new ApiError(400, message);

export const notFound = (message: string): ApiError => new ApiError(404, message);

export function validationFailed(fields: FieldMessages): ApiError {
	const details = Object.entries(fields).map(([field, messages]) => `${field} ${messages.join(', ')}`);
	return new ApiError(422, `Validation failed: ${details.join('; ')}`, fields);
}

export const statusText = (status: number): string => STATUS_CODES[status] ?? 'Error';
