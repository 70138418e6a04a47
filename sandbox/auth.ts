export type AuthKind = 'full' | 'readonly' | 'invalid' | 'none';

export interface Tokens {
	token: string;
	readOnlyToken: string;
}

/** Classifies the Authorization header; the token value itself goes nowhere else. */
export function authenticate(header: string | undefined, tokens: Tokens): AuthKind {
	if (header === undefined || header === '') return 'none';
	const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
	if (!match) return 'invalid';
	if (match[1] === tokens.token) return 'full';
	if (match[1] === tokens.readOnlyToken) return 'readonly';
	return 'invalid';
}
