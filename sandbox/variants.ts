/**
 * Variants: the choices other reasonable ERPs made where the API document is silent. A variant is a named
 * bundle of settings; the default settings are the sandbox's own choices (docs/api-assumptions.md).
 */

export const ERROR_FORMATS = ['envelope', 'success-false-200', 'problem-json', 'errors-array', 'errors-object', 'plain-text'] as const;
export const RULE_SETS = ['default', 'lenient', 'tight'] as const;
export const WEBHOOK_TIMESTAMP_FORMS = ['iso-ms', 'iso-seconds', 'offset', 'compact-offset', 'micros', 'unparseable', 'missing'] as const;

/** The values of the other choice settings: the types below and the admin route's checks both read them. */
export const CHOICES = {
	perPageAboveMax: ['cap', 'refuse-422', 'refuse-400'],
	pageParam: ['honoured', 'ignored'],
	listFilters: ['applied', 'ignored'],
	put: ['merge', 'replace'],
	createAnswer: ['record', 'bare'],
	deleteAnswer: ['id', 'no-content', 'record'],
	rateLimitHeaders: ['x-ratelimit', 'ietf', 'none'],
	retryAfter: ['seconds', 'http-date', 'none'],
	recordTimestamps: ['iso-ms', 'offset'],
	listOrder: ['oldest-first', 'newest-first'],
	deliveryIdHeader: ['x-erp-delivery', 'webhook-id', 'none'],
	productStock: ['stock_total', 'none'],
} as const;
type Choice<K extends keyof typeof CHOICES> = (typeof CHOICES)[K][number];

export type ErrorFormat = (typeof ERROR_FORMATS)[number];
export type RuleSet = (typeof RULE_SETS)[number];
export type WebhookTimestampForm = (typeof WEBHOOK_TIMESTAMP_FORMS)[number];

export interface VariantSettings {
	maxPerPage: number;
	/** Used when the request names no per_page (never above maxPerPage). */
	defaultPerPage: number;
	/** What a per_page above maxPerPage gets: capped silently, or refused. */
	perPageAboveMax: Choice<'perPageAboveMax'>;
	/** Every page has this size whatever per_page says; null: per_page is honoured. */
	fixedPerPage: number | null;
	/** 'ignored': always the first page, meta.page echoing the page asked for. */
	pageParam: Choice<'pageParam'>;
	metaTotal: boolean;
	listFilters: Choice<'listFilters'>;
	/** The order of a list when the request names no sort: by id, or newest (highest id) first. */
	listOrder: Choice<'listOrder'>;
	/** 'replace': PUT replaces the whole record (absent fields cleared or defaulted). */
	put: Choice<'put'>;
	/** 'bare': creates answer `{success: true}` and a Location header, no data. */
	createAnswer: Choice<'createAnswer'>;
	createStatus: 200 | 201;
	/** 'id': `{id, deleted: true}`; 'no-content': 204 without a body; 'record': the record plus deleted_at. */
	deleteAnswer: Choice<'deleteAnswer'>;
	errorFormat: ErrorFormat;
	rules: RuleSet;
	rateLimitHeaders: Choice<'rateLimitHeaders'>;
	/** How a 429 names its wait. */
	retryAfter: Choice<'retryAfter'>;
	/** An API gateway in front: rate-limit headers with an hour-long window on every answer, faults included. */
	gatewayHeaders: boolean;
	recordTimestamps: Choice<'recordTimestamps'>;
	webhookTimestamp: WebhookTimestampForm;
	/** POST /__sandbox/events accepts event names outside the six. */
	futureEvents: boolean;
	/** The header naming each delivery (the same on its retries): X-Erp-Delivery, Webhook-Id, or none at all. */
	deliveryIdHeader: Choice<'deliveryIdHeader'>;
	/** 'none': product records carry no stock field; a product's stock only through GET /products/{id}/stock. */
	productStock: Choice<'productStock'>;
}

export const DEFAULT_SETTINGS: Readonly<VariantSettings> = Object.freeze({
	maxPerPage: 100,
	defaultPerPage: 25,
	perPageAboveMax: 'cap',
	fixedPerPage: null,
	pageParam: 'honoured',
	metaTotal: true,
	listFilters: 'applied',
	listOrder: 'oldest-first',
	put: 'merge',
	createAnswer: 'record',
	createStatus: 201,
	deleteAnswer: 'id',
	errorFormat: 'envelope',
	rules: 'default',
	rateLimitHeaders: 'x-ratelimit',
	retryAfter: 'seconds',
	gatewayHeaders: false,
	recordTimestamps: 'iso-ms',
	webhookTimestamp: 'iso-ms',
	futureEvents: false,
	deliveryIdHeader: 'x-erp-delivery',
	productStock: 'stock_total',
});

interface Variant {
	/** What the variant models, in one line. */
	models: string;
	settings: Partial<VariantSettings>;
}

const webhookTimestamp = (form: WebhookTimestampForm, example: string): Variant => ({
	models: `webhook deliveries with the timestamp ${example}`,
	settings: { webhookTimestamp: form },
});

export const VARIANTS = {
	'small-pages': {
		models: 'maximum per_page 20 (larger requests capped silently), default 10',
		settings: { maxPerPage: 20, defaultPerPage: 10 },
	},
	'strict-paging': {
		models: 'maximum per_page 50; a larger one is refused 422 per_page: ["must be at most 50"]',
		settings: { maxPerPage: 50, perPageAboveMax: 'refuse-422' },
	},
	'strict-paging-400': {
		models: 'maximum per_page 50; a larger one is refused 400 "per_page must be between 1 and 50"',
		settings: { maxPerPage: 50, perPageAboveMax: 'refuse-400' },
	},
	'fixed-pages': {
		models: 'per_page ignored: every page has 25 records, meta.per_page 25',
		settings: { fixedPerPage: 25 },
	},
	'page-ignored': {
		models: 'page ignored: always the first page, meta.page echoing the page asked for, the true meta.total',
		settings: { pageParam: 'ignored' },
	},
	'newest-first': {
		models: 'lists newest first when no sort is asked, so a record created during a scan shifts every later page',
		settings: { listOrder: 'newest-first' },
	},
	'no-total': {
		models: 'list meta without total',
		settings: { metaTotal: false },
	},
	'replace-put': {
		models: 'PUT replaces the whole record: absent fields cleared or defaulted, a missing required field 422',
		settings: { put: 'replace' },
	},
	'success-false-200': {
		models: 'validation failures answered 200 with {success: false, error: {code, message, fields}}',
		settings: { errorFormat: 'success-false-200' },
	},
	'problem-json': {
		models: 'errors as RFC 7807 application/problem+json {type, title, status, detail, errors: [{field, message}]}',
		settings: { errorFormat: 'problem-json' },
	},
	'errors-array': {
		models: 'errors as {message, errors: [{field, message}]}',
		settings: { errorFormat: 'errors-array' },
	},
	'errors-object': {
		models: 'errors as {message, errors: {field: ["…"]}} (errors on validation failures only)',
		settings: { errorFormat: 'errors-object' },
	},
	'plain-text-errors': {
		models: 'errors as text/plain bodies',
		settings: { errorFormat: 'plain-text' },
	},
	'lenient-rules': {
		models: 'any SKU up to 255 characters, long names, other currency codes, enum values and decimals accepted',
		settings: { rules: 'lenient' },
	},
	'tight-rules': {
		models: 'shorter lengths (first_name at most 20 characters…), refused 422',
		settings: { rules: 'tight' },
	},
	'ignored-filters': {
		models: 'list filters ignored: every list returns everything (paging and sort still apply)',
		settings: { listFilters: 'ignored' },
	},
	'bare-create': {
		models: 'creates answer 201 {success: true} without data; a Location header names the new record',
		settings: { createAnswer: 'bare' },
	},
	'created-200': {
		models: 'creates answer 200 instead of 201',
		settings: { createStatus: 200 },
	},
	'delete-204': {
		models: 'DELETE answers 204 without a body',
		settings: { deleteAnswer: 'no-content' },
	},
	'soft-delete': {
		models: 'DELETE answers 200 with the whole record plus deleted_at; a later GET is 404',
		settings: { deleteAnswer: 'record' },
	},
	'gateway-headers': {
		models: 'an API gateway: X-RateLimit-* with an hour-long window on every answer, 5xx and HTML faults included',
		settings: { gatewayHeaders: true },
	},
	'ietf-ratelimit': {
		models: 'RateLimit-Limit/-Remaining/-Reset (delta seconds) instead of X-RateLimit-*; Retry-After as an HTTP date',
		settings: { rateLimitHeaders: 'ietf', retryAfter: 'http-date' },
	},
	'silent-rate-limit': {
		models: 'a limit told by nothing but the 429: no rate-limit headers on any answer, no Retry-After',
		settings: { rateLimitHeaders: 'none', retryAfter: 'none' },
	},
	'retry-after-only': {
		models: 'a limit told only by the 429\'s Retry-After (whole seconds): no count or reset headers on any answer',
		settings: { rateLimitHeaders: 'none', retryAfter: 'seconds' },
	},
	'no-retry-after': {
		models: '429 without Retry-After, only X-RateLimit-Reset (epoch seconds)',
		settings: { retryAfter: 'none' },
	},
	'offset-timestamps': {
		models: 'record timestamps as 2026-11-23T10:00:00+00:00 (no millis, an offset)',
		settings: { recordTimestamps: 'offset' },
	},
	'webhook-timestamp-seconds': webhookTimestamp('iso-seconds', '2026-11-23T10:00:00Z'),
	'webhook-timestamp-offset': webhookTimestamp('offset', '2026-11-23T10:00:00+00:00'),
	'webhook-timestamp-compact': webhookTimestamp('compact-offset', '2026-11-23T10:00:00+0000'),
	'webhook-timestamp-micros': webhookTimestamp('micros', '2026-11-23T10:00:00.123000Z (microseconds)'),
	'webhook-timestamp-unparseable': webhookTimestamp('unparseable', '"23.11.2026 um 10:00:00 Uhr" (no ISO 8601, no date to any parser)'),
	'webhook-timestamp-missing': { models: 'webhook deliveries without a timestamp', settings: { webhookTimestamp: 'missing' } },
	'future-events': {
		models: 'POST /__sandbox/events accepts event names outside the six (e.g. invoice.created)',
		settings: { futureEvents: true },
	},
	'webhook-id-header': {
		models: 'deliveries named by a Webhook-Id header (Standard Webhooks) instead of X-Erp-Delivery',
		settings: { deliveryIdHeader: 'webhook-id' },
	},
	'no-delivery-id': {
		models: 'deliveries without any delivery id header: a resend is the same body again',
		settings: { deliveryIdHeader: 'none' },
	},
	'no-stock-in-list': {
		models: 'product records without stock_total (lists, reads and writes): the stock only through GET /products/{id}/stock',
		settings: { productStock: 'none' },
	},
} satisfies Record<string, Variant>;

export type VariantName = keyof typeof VARIANTS;

export const VARIANT_NAMES = Object.keys(VARIANTS) as VariantName[];

export const isVariantName = (value: unknown): value is VariantName => typeof value === 'string' && value in VARIANTS;

/** The active variants and the settings they make, with explicit settings applied last. */
export interface VariantChoice {
	variants: VariantName[];
	settings: VariantSettings;
}

/**
 * The settings of `variants` combined, then `explicit` on top. Throws on an unknown name, and when two
 * variants set one setting to different values (they cannot be combined).
 */
export function resolveVariants(variants: readonly string[], explicit: Partial<VariantSettings> = {}): VariantChoice {
	const unknown = variants.filter((name) => !isVariantName(name));
	if (unknown.length > 0) throw new Error(`unknown variant ${unknown.join(', ')}: known are ${VARIANT_NAMES.join(', ')}`);
	const settings: VariantSettings = { ...DEFAULT_SETTINGS };
	const setBy = new Map<keyof VariantSettings, VariantName>();
	for (const name of variants as readonly VariantName[]) {
		for (const [key, value] of Object.entries(VARIANTS[name].settings) as Array<[keyof VariantSettings, unknown]>) {
			const earlier = setBy.get(key);
			if (earlier && earlier !== name && settings[key] !== value) {
				throw new Error(`variants ${earlier} and ${name} both set ${key}: choose one`);
			}
			setBy.set(key, name);
			(settings as unknown as Record<string, unknown>)[key] = value;
		}
	}
	return { variants: [...new Set(variants as readonly VariantName[])], settings: { ...settings, ...explicit } };
}

/** The variant in force, switchable at run time; `restore` goes back to the choice made at start. */
export class ActiveVariant {
	private choice: VariantChoice;

	constructor(private readonly atStart: VariantChoice) {
		this.choice = atStart;
	}

	get settings(): Readonly<VariantSettings> {
		return this.choice.settings;
	}

	get current(): VariantChoice {
		return { variants: [...this.choice.variants], settings: { ...this.choice.settings } };
	}

	set(choice: VariantChoice): void {
		this.choice = choice;
	}

	restore(): void {
		this.choice = this.atStart;
	}
}
