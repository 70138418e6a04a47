import type { IExecuteFunctions } from 'n8n-workflow';

/** Per node run (n8n gives each its own context), by name: the value read once, or undefined for one read per item. */
const runs = new WeakMap<IExecuteFunctions, Map<string, { value: unknown } | undefined>>();

/** Whether a stored parameter value holds an expression anywhere in it (an expression may differ per item). */
const holdsExpression = (value: unknown): boolean =>
	typeof value === 'string' ? value.startsWith('=') : typeof value === 'object' && value !== null && Object.values(value).some(holdsExpression);

/**
 * A parameter as getNodeParameter reads it for the item, read once per run when its stored value holds no expression:
 * n8n then resolves it the same way for every item. One that holds an expression is read for each item; whether it
 * holds one is looked at once (the stored value is the same for every item). The value returned is shared by the
 * run's items: callers only read it.
 */
export function runWideParameter<T>(this: IExecuteFunctions, name: string, itemIndex: number, fallback: T): T {
	let values = runs.get(this);
	if (!values) {
		values = new Map();
		runs.set(this, values);
	}
	if (values.has(name)) {
		const once = values.get(name);
		return once ? (once.value as T) : (this.getNodeParameter(name, itemIndex, fallback) as T);
	}
	const value = this.getNodeParameter(name, itemIndex, fallback) as T;
	values.set(name, holdsExpression(this.getNodeParameter(name, itemIndex, fallback, { rawExpressions: true })) ? undefined : { value });
	return value;
}
