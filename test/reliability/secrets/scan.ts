import { readFileSync } from 'node:fs';

import { allExecutions } from '../../../tooling/host/executions';
import type { Execution } from '../../../tooling/host/types';
import type { ReliabilitySession } from '../setup/context';

export const REDACTED = '[redacted]';

const occurrences = (text: string, secret: string) => text.split(secret).length - 1;

/**
 * Counts each secret in every execution n8n saved (output items, error messages and descriptions, node
 * parameters), in n8n's log of the whole run, and in `answers` (e.g. what the triggers answered). `searched`
 * gives the characters searched per place; `redactions` how often the node wrote "[redacted]" in executions.
 */
export async function scanForSecrets(
	session: ReliabilitySession,
	secrets: Record<string, string>,
	answers: string,
) {
	const executions: Execution[] = [];
	for (const workflow of await session.n8n.listWorkflows()) executions.push(...(await allExecutions(session.n8n, workflow.id, true)));
	const places: Record<string, string> = {
		executions: executions.map((execution) => JSON.stringify(execution)).join('\n'),
		'n8n log': readFileSync(session.ctx.n8nLogFile, 'utf8'),
		'answers and results': answers,
	};
	const leaks: Array<{ place: string; secret: string; occurrences: number }> = [];
	for (const [place, text] of Object.entries(places)) {
		for (const [secret, value] of Object.entries(secrets)) {
			const found = occurrences(text, value);
			if (found > 0) leaks.push({ place, secret, occurrences: found });
		}
	}
	return {
		searched: Object.fromEntries(Object.entries(places).map(([place, text]) => [place, text.length])),
		leaks,
		executions: executions.length,
		redactions: occurrences(places.executions, REDACTED),
	};
}
