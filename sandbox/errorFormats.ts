import { JSON_TYPE, type Answer } from './body';
import { errorBody, statusText, type FieldMessages } from './errors';
import type { ErrorFormat } from './variants';

/** A failure as the error-format variant in force writes it (the default: the error envelope). */
export function errorAnswer(status: number, message: string, fields: FieldMessages | undefined, format: ErrorFormat): Answer {
	const json = (value: object, type = JSON_TYPE['Content-Type'], answered = status): Answer => ({
		status: answered,
		headers: { 'Content-Type': type },
		body: JSON.stringify(value),
	});
	const list = Object.entries(fields ?? {}).flatMap(([field, messages]) => messages.map((text) => ({ field, message: text })));
	switch (format) {
		case 'envelope':
			return json(errorBody(status, message, fields));
		case 'success-false-200':
			return json(errorBody(status, message, fields), undefined, status === 422 ? 200 : status);
		case 'problem-json':
			return json(
				{ type: 'about:blank', title: statusText(status), status, detail: message, ...(fields ? { errors: list } : {}) },
				'application/problem+json; charset=utf-8',
			);
		case 'errors-array':
			return json({ message, errors: list });
		case 'errors-object':
			return json({ message, ...(fields ? { errors: fields } : {}) });
		case 'plain-text':
			return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: message };
	}
}
