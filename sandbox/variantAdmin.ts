import type { AdminHandler } from './adminHandler';
import { validationFailed } from './errors';
import { FieldErrors, isPlainObject, readFields, type FieldSpec } from './validate';
import {
	CHOICES,
	ERROR_FORMATS,
	resolveVariants,
	RULE_SETS,
	VARIANT_NAMES,
	VARIANTS,
	WEBHOOK_TIMESTAMP_FORMS,
	type VariantChoice,
	type VariantSettings,
} from './variants';

const pageSize = { type: 'number', integer: true, min: 1 } as const;
const settingsSchema = {
	maxPerPage: pageSize,
	defaultPerPage: pageSize,
	perPageAboveMax: { type: 'string', oneOf: CHOICES.perPageAboveMax },
	fixedPerPage: { ...pageSize, nullable: true },
	pageParam: { type: 'string', oneOf: CHOICES.pageParam },
	metaTotal: { type: 'boolean' },
	listFilters: { type: 'string', oneOf: CHOICES.listFilters },
	put: { type: 'string', oneOf: CHOICES.put },
	createAnswer: { type: 'string', oneOf: CHOICES.createAnswer },
	createStatus: { type: 'number', integer: true, min: 200, max: 201 },
	deleteAnswer: { type: 'string', oneOf: CHOICES.deleteAnswer },
	errorFormat: { type: 'string', oneOf: ERROR_FORMATS },
	rules: { type: 'string', oneOf: RULE_SETS },
	rateLimitHeaders: { type: 'string', oneOf: CHOICES.rateLimitHeaders },
	retryAfter: { type: 'string', oneOf: CHOICES.retryAfter },
	gatewayHeaders: { type: 'boolean' },
	recordTimestamps: { type: 'string', oneOf: CHOICES.recordTimestamps },
	listOrder: { type: 'string', oneOf: CHOICES.listOrder },
	webhookTimestamp: { type: 'string', oneOf: WEBHOOK_TIMESTAMP_FORMS },
	futureEvents: { type: 'boolean' },
	deliveryIdHeader: { type: 'string', oneOf: CHOICES.deliveryIdHeader },
	productStock: { type: 'string', oneOf: CHOICES.productStock },
} satisfies Record<keyof VariantSettings, FieldSpec>;

/** Explicit settings: every key known, every value valid (null only where null means something). */
function readSettings(raw: unknown): Partial<VariantSettings> {
	if (raw === undefined) return {};
	if (!isPlainObject(raw)) throw validationFailed({ settings: ['must be an object of settings (GET /__sandbox/variant shows them)'] });
	const errors = new FieldErrors();
	const schema: Record<string, FieldSpec> = settingsSchema;
	for (const [key, value] of Object.entries(raw)) {
		if (!(key in schema)) errors.add(`settings.${key}`, `is not a setting: one of ${Object.keys(schema).join(', ')}`);
		else if (value === null && !schema[key].nullable) errors.add(`settings.${key}`, 'cannot be null');
	}
	const values = readFields(raw, settingsSchema, 'create', errors, 'settings.');
	errors.throwIfAny();
	return values as Partial<VariantSettings>;
}

/** PUT /__sandbox/variant `{variants?: [names], settings?: {…}}`: replaces the variant in force. */
export const putVariant: AdminHandler = ({ state, body }) => {
	const names = body.variants ?? [];
	if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
		throw validationFailed({ variants: [`must be a list of variant names: ${VARIANT_NAMES.join(', ')}`] });
	}
	const settings = readSettings(body.settings);
	let choice: VariantChoice;
	try {
		choice = resolveVariants(names, settings);
	} catch (error) {
		throw validationFailed({ variants: [(error as Error).message] });
	}
	state.variant.set(choice);
	return state.variant.current;
};

export const getVariant: AdminHandler = ({ state }) => state.variant.current;

export const deleteVariant: AdminHandler = ({ state }) => {
	state.variant.restore();
	return state.variant.current;
};

/** GET /__sandbox/variants: every named variant, what it models and the settings it makes. */
export const listVariants: AdminHandler = () => VARIANT_NAMES.map((name) => ({ name, ...VARIANTS[name] }));
