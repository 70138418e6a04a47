import { randomBytes } from 'node:crypto';

import type { BadInputResult } from '../report/results';
import { looksLikeCrash } from '../support/crash';
import type { ReliabilitySession } from '../setup/context';
import type { TriggerCase } from './triggerCases';
import { runsAfterSentinel, triggerWorkflow, unattributedRuns, type TriggerKind, type TriggerWorkflow } from './triggerWorkflows';

interface Answer {
	status: number;
	message: string;
}

/** Sends the request; the answer's `message` when it is JSON, else its text. A broken connection counts as status 0. */
async function send(trigger: TriggerWorkflow, c: TriggerCase, marker: string, secret: string): Promise<Answer> {
	const { method, headers, body } = c.request(marker, secret);
	try {
		const response = await fetch(trigger.url, { method, headers, body });
		const text = await response.text();
		let message = text;
		try {
			const parsed = JSON.parse(text) as { message?: unknown; hint?: unknown };
			message = [parsed.message, parsed.hint].filter((part) => typeof part === 'string').join(' ') || text;
		} catch {
			// not JSON: the text is the message
		}
		return { status: response.status, message };
	} catch (error) {
		return { status: 0, message: `no answer: ${(error as Error).message}` };
	}
}

function judge(c: TriggerCase, answer: Answer, started: boolean, input: string): BadInputResult {
	const crash = answer.status === 0 || answer.status >= 500 || looksLikeCrash(answer.message);
	const failures: string[] = [];
	if (answer.status !== c.expect.status) failures.push(`answered ${answer.status}, not ${c.expect.status}`);
	if (!c.expect.field.test(answer.message)) failures.push('the answer does not name the field');
	if (c.expect.fix && !c.expect.fix.test(answer.message)) failures.push('the answer does not say how to fix it');
	const mustStart = c.expect.started === true;
	if (started !== mustStart) failures.push(mustStart ? 'no workflow run started' : 'a workflow run started');
	if (crash) failures.push('crash');
	return {
		id: c.id,
		area: 'trigger',
		title: c.title,
		input,
		answeredBy: c.answeredBy ?? 'ERP Trigger',
		expected: {
			field: c.expect.field.source,
			fix: c.expect.fix?.source ?? null,
			httpStatus: c.expect.status,
		},
		actual: { message: answer.message, httpStatus: answer.status, started },
		clear: failures.length === 0,
		crash,
		failures,
	};
}

/** What a case sent, for the report: method, content type, headers' names and the body's start and size. */
function describeRequest(c: TriggerCase, marker: string, secret: string): string {
	const { method, headers, body = '' } = c.request(marker, secret);
	const shown = body.length > 200 ? `${body.slice(0, 120)}… (${body.length} bytes)` : body;
	return `${method} to the ${c.trigger} trigger, headers ${JSON.stringify(Object.keys(headers))}, body ${JSON.stringify(shown)}`;
}

/**
 * Sends every case to its trigger (one active workflow per kind), then one valid delivery per trigger; once
 * that one's run is saved, every run the cases could have started is too. A case started a run when its
 * marker shows in one.
 */
export async function runTriggerCases(session: ReliabilitySession, cases: TriggerCase[]): Promise<BadInputResult[]> {
	const kinds = [...new Set(cases.map((c) => c.trigger))];
	const triggers = new Map<TriggerKind, TriggerWorkflow>();
	for (const kind of kinds) triggers.set(kind, await triggerWorkflow(session, kind));
	const secret = session.ctx.webhookSecret;

	const sent = [];
	for (const c of cases) {
		const marker = `case-${c.id}-${randomBytes(6).toString('hex')}`;
		sent.push({ c, marker, answer: await send(triggers.get(c.trigger) as TriggerWorkflow, c, marker, secret) });
	}
	const runs = new Map<TriggerKind, string[]>();
	const strays = new Map<TriggerKind, number>();
	for (const [kind, trigger] of triggers) {
		const all = await runsAfterSentinel(session, trigger);
		runs.set(kind, all.map((run) => JSON.stringify(run.data)));
		strays.set(kind, unattributedRuns(all, sent.map((s) => s.marker)));
	}
	return sent.map(({ c, marker, answer }) => {
		const ownRun = (runs.get(c.trigger) ?? []).some((data) => data.includes(marker));
		// A run no marker explains may be this case's: it fails every case of its trigger that must start none.
		const started = c.expect.started ? ownRun : ownRun || (strays.get(c.trigger) ?? 0) > 0;
		return judge(c, answer, started, describeRequest(c, marker, '<the secret>'));
	});
}
