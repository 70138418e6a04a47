import type { VariantSettings, WebhookTimestampForm } from './variants';

type PresentForm = Exclude<WebhookTimestampForm, 'missing'>;

/** `2026-11-23T10:00:00.123Z` (how the sandbox stores time) written in another form a real ERP may use. */
export function timestampIn(form: PresentForm, iso: string): string {
	const seconds = iso.slice(0, 19);
	switch (form) {
		case 'iso-ms':
			return iso;
		case 'iso-seconds':
			return `${seconds}Z`;
		case 'offset':
			return `${seconds}+00:00`;
		case 'compact-offset':
			return `${seconds}+0000`;
		case 'micros':
			return `${iso.slice(0, 23)}000Z`;
		case 'unparseable':
			// A German local form: with `/` or `.` alone, Date.parse reads day/month as month/day on days 1 to 12.
			return `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)} um ${iso.slice(11, 19)} Uhr`;
	}
}

const STORED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A record, or a list of them, with its timestamps (`*_at`) in the variant's form. */
export function withRecordTimestamps(data: unknown, form: VariantSettings['recordTimestamps']): unknown {
	if (form === 'iso-ms') return data;
	if (Array.isArray(data)) return data.map((row) => withRecordTimestamps(row, form));
	if (typeof data !== 'object' || data === null) return data;
	return Object.fromEntries(
		Object.entries(data).map(([key, value]) =>
			key.endsWith('_at') && typeof value === 'string' && STORED.test(value) ? [key, timestampIn(form, value)] : [key, value],
		),
	);
}
