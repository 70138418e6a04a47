import { nowIso } from '../dates';
import type { VariantSettings } from '../variants';
import type { ApiResult } from './context';

/** The answer to a DELETE that removed `record`, in the form the variant chose. */
export function deletedAnswer(record: { id: number }, variant: Readonly<VariantSettings>): ApiResult {
	switch (variant.deleteAnswer) {
		case 'id':
			return { data: { id: record.id, deleted: true } };
		case 'no-content':
			return { status: 204 };
		case 'record':
			return { data: { ...record, deleted_at: nowIso() } };
	}
}
