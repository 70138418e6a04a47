import { JSON_TYPE, type Answer } from './body';
import type { ApiResult } from './resources/context';
import { withRecordTimestamps } from './timestampForms';
import type { VariantSettings } from './variants';

/** A handler's result as the variant in force answers it: the envelope, or another create/delete form. */
export function successAnswer(result: ApiResult, variant: Readonly<VariantSettings>): Answer {
	if (result.status === 204) return { status: 204, headers: {}, body: '' };
	const headers: Record<string, string> = { ...JSON_TYPE };
	let status = result.status ?? 200;
	if (result.created !== undefined) {
		status = variant.createStatus;
		if (variant.createAnswer === 'bare') {
			headers.Location = `/api/v1${result.created}`;
			return { status, headers, body: JSON.stringify({ success: true }) };
		}
	}
	const data = withRecordTimestamps(result.data, variant.recordTimestamps);
	return { status, headers, body: JSON.stringify({ success: true, data, ...(result.meta ? { meta: result.meta } : {}) }) };
}
