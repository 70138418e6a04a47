import { COMPANY_FIRST, COMPANY_SECOND, COUNTRIES, FIRST_NAMES, LAST_NAMES, type Country } from './names';
import type { Random } from './random';

const SPECIAL: Record<string, string> = { ß: 'ss', ø: 'o', æ: 'ae', ł: 'l', ı: 'i', đ: 'd' };

/** "Søren" → "soren", "de Vries" → "devries", "O'Brien" → "obrien": usable in e-mail addresses. */
export const emailPart = (name: string): string =>
	name
		.toLowerCase()
		.replace(/[ßøæłıđ]/g, (c) => SPECIAL[c])
		.normalize('NFD')
		.replace(/[^a-z0-9]/g, '');

export interface Person {
	firstName: string;
	lastName: string;
}

export const person = (rng: Random): Person => ({ firstName: rng.pick(FIRST_NAMES), lastName: rng.pick(LAST_NAMES) });

export const country = (rng: Random): Country => rng.weighted(COUNTRIES.map((c) => [c, c.weight] as const));

export const phone = (rng: Random, where: Country): string => rng.digits(rng.pick(where.phones));

export interface Company {
	name: string;
	domain: string;
}

export function company(rng: Random, where: Country): Company {
	const first = rng.pick(COMPANY_FIRST);
	const second = rng.pick(COMPANY_SECOND);
	return {
		name: `${first} ${second} ${where.suffix}`,
		domain: `${emailPart(first)}-${emailPart(second)}.${where.tld}`,
	};
}
