import type { HttpMethod } from './types';

const NOUNS: Record<string, string> = {
	contacts: 'contact',
	invoices: 'invoice',
	products: 'product',
	employees: 'employee',
};

/** What a request is about, read from its path, for error messages: `/invoices/7/send` → invoice 7, send. */
export interface Target {
	noun: string;
	id?: string;
	action?: string;
}

export function targetOf(path: string): Target {
	const [collection = '', id, action] = path.split('?')[0].split('/').filter(Boolean);
	return { noun: NOUNS[collection] ?? collection, id, action };
}

export function capitalize(word: string): string {
	return word.charAt(0).toUpperCase() + word.slice(1);
}

/** "create contacts", "read invoice 7", "mark invoice 7 as paid", … */
export function actionPhrase(method: HttpMethod, target: Target): string {
	const one = `${target.noun} ${target.id ?? ''}`.trim();
	if (target.action === 'send') return `send ${one}`;
	if (target.action === 'mark-paid') return `mark ${one} as paid`;
	if (target.action === 'stock') return `read the stock of ${one}`;
	if (target.action === 'payroll') return `read the payroll of ${one}`;
	if (!target.id) return method === 'POST' ? `create ${target.noun}s` : `list ${target.noun}s`;
	if (method === 'PUT') return `update ${one}`;
	if (method === 'DELETE') return `delete ${one}`;
	return `read ${one}`;
}
