import { readFileSync, statSync } from 'node:fs';

import type { Execution, SavedWorkflow, WorkflowDefinition } from '../../../tooling/host/types';
import { allExecutions, findExecution, nodeOutput } from '../../../tooling/host/executions';
import { N8N_VERSION } from '../../../tooling/host/install';
import { n8nLine } from '../../../tooling/host/lines';
import { ERP_POLLING_TRIGGER_NAME, erpPollingTriggerNode } from '../../../tooling/host/workflows';
import type { RequestLogEntry } from '../../../sandbox/requestLog';
import { chanceSomeRequestFails } from '../faults/chains';
import { type ReliabilitySession, scenarioRandom } from '../setup/context';
import { countBy, sum, sums } from '../support/batch';
import { ContactChanger, type Live, POLLING_PLAN, WATCHED_VALUE } from './changes';
import { type Company, type GroundTruth, type PollingTally, type Report, tallyChanges, tallyValue } from './tallyPolling';

const TRIGGER = ERP_POLLING_TRIGGER_NAME;
const CREATED = 'contact.created';
const UPDATED = 'contact.updated';
const VALUE_EVENT = `contact.company.${WATCHED_VALUE}`;
/** The shortest Poll Times the line accepts (every 10 s), as in the e2e polling tests. */
const POLL = n8nLine(N8N_VERSION).shortestPoll;
const everyTenSeconds = (cron: (second: number) => string) => [0, 10, 20, 30, 40, 50].map((second) => ({ mode: 'custom', cronExpression: cron(second) }));
// A sentinel is reported by the next poll of each workflow.
const SENTINEL_WAIT_MS = POLL.intervalMs + 50_000;
// A request repeating a struck one within this is its retry (the trigger retries within a second; polls are 10 s apart).
const SAME_POLL_MS = 5_000;

interface PolledWorkflow {
	key: string;
	title: string;
	parameters: Record<string, unknown>;
	/** Poll Times entries; the line's shortest (every 10 s) when absent. */
	pollTimes?: Array<Record<string, unknown>>;
	pageSize: number;
	judge: (truth: GroundTruth, reports: Report[]) => PollingTally;
}

const changes = { triggerOn: 'contact:recordAddedOrUpdated', fieldsToWatch: 'company' };
const WORKFLOWS: PolledWorkflow[] = [
	{ key: 'changes', title: 'Record Added or Updated, Fields to Watch: company', parameters: changes, pageSize: 100, judge: (t, r) => tallyChanges(t, r, CREATED, UPDATED) },
	// About 60 requests a poll: nearly every poll under faults fails, so that some surely do.
	{ key: 'changes-small-pages', title: 'the same, Page Size 5', parameters: changes, pageSize: 5, judge: (t, r) => tallyChanges(t, r, CREATED, UPDATED) },
	// Two entries for each second: n8n starts two polls together every 10 s, on one memory.
	{
		key: 'changes-two-poll-times',
		title: 'the same, Page Size 20, two Poll Times on each second (custom `0 * * * * *` and `0 */1 * * * *`, likewise 10 to 50)',
		parameters: changes,
		pollTimes: [...everyTenSeconds((second) => `${second} * * * * *`), ...everyTenSeconds((second) => `${second} */1 * * * *`)],
		pageSize: 20,
		judge: (t, r) => tallyChanges(t, r, CREATED, UPDATED),
	},
	{
		key: 'company-becomes-value',
		title: `Field Becomes a Value: company becomes "${WATCHED_VALUE}"`,
		parameters: { triggerOn: 'contact:fieldValue', field: 'company', value: WATCHED_VALUE },
		pageSize: 50,
		judge: (t, r) => tallyValue(t, r, VALUE_EVENT, WATCHED_VALUE),
	},
];

function definition(session: ReliabilitySession, w: PolledWorkflow): WorkflowDefinition {
	const { good } = session.ctx.credentials;
	return {
		name: `reliability polling ${w.key} ${Date.now()}`,
		nodes: [
			erpPollingTriggerNode(
				{ item: w.pollTimes ?? POLL.pollTimes.item },
				{ ...w.parameters, options: { maxRetries: POLLING_PLAN.maxRetries, pageSize: w.pageSize } },
				good,
			),
		],
		connections: {},
	};
}

const companies = (records: Array<{ id: number; company: Company }>) => new Map(records.map((c) => [c.id, c.company] as const));

function reportsOf(executions: Execution[]): Report[] {
	return executions.flatMap((e) =>
		nodeOutput(e, TRIGGER).map((json) => {
			const data = json.data as { id: number; company?: Company };
			const change = (json.changes as { company?: { previous?: Company; current: Company } } | undefined)?.company;
			const event = String(json.event);
			return {
				executionId: e.id,
				event,
				id: data.id,
				company: event === UPDATED ? (change?.current ?? null) : (data.company ?? null),
				...(event === UPDATED ? { previous: change?.previous ?? null } : {}),
				polledAt: Date.parse(String(json.timestamp)),
			};
		}),
	);
}

/** Waits until every workflow has reported `contactId`; returns the execution that did, per workflow (null: not within the wait). */
async function waitForSentinel(session: ReliabilitySession, workflows: SavedWorkflow[], contactId: number): Promise<Array<Execution | null>> {
	const deadline = Date.now() + SENTINEL_WAIT_MS;
	const found: Array<Execution | null> = [];
	for (const workflow of workflows) {
		const reportsSentinel = (json: Record<string, unknown>) => (json.data as { id?: unknown } | undefined)?.id === contactId;
		try {
			found.push(await findExecution(session.n8n, workflow.id, TRIGGER, reportsSentinel, Math.max(0, deadline - Date.now())));
		} catch (error) {
			// findExecution gives up at the deadline: that workflow did not report it in time.
			if (Date.now() < deadline) throw error;
			found.push(null);
		}
	}
	return found;
}

/** The size of n8n's log now: what n8n logs later is read from there. */
const logSize = (session: ReliabilitySession) => statSync(session.ctx.n8nLogFile).size;

/** How many polls of each workflow n8n began in a stretch of its log (at debug level it logs each poll's start). */
function pollsIn(log: Buffer, from: number, to: number, workflow: SavedWorkflow): number {
	return log.subarray(from, to).toString('utf8').split(`Poll trigger initiated for workflow "${workflow.name}"`).length - 1;
}

/**
 * The trigger's GETs while the faults were on: first attempts, struck ones, and retries struck again (failed for
 * good with Max Retries 1). A request following a struck identical one within SAME_POLL_MS is its retry.
 */
function getRequests(requests: RequestLogEntry[]) {
	const struckAt = new Map<string, number[]>();
	let sent = 0;
	let struck = 0;
	let failedForGood = 0;
	for (const r of requests) {
		if (r.method !== 'GET') continue;
		const key = `${r.path} ${JSON.stringify(r.query)}`;
		const at = Date.parse(r.at);
		const pending = (struckAt.get(key) ?? []).filter((t) => at - t < SAME_POLL_MS);
		const retry = pending.length > 0;
		if (retry) pending.shift();
		else sent++;
		if (r.fault) {
			struck++;
			if (retry) failedForGood++;
			else pending.push(at);
		}
		struckAt.set(key, pending);
	}
	return { sent, struck, failedForGood };
}

/** The failed polls' error messages, and how many polls failed with each. */
const errorMessages = (executions: Execution[]) =>
	Object.entries(countBy(executions.filter((e) => e.status === 'error'), (e) => e.data?.resultData.error?.message ?? '(no message)'))
		.map(([message, polls]) => ({ message, polls }))
		.sort((a, b) => b.polls - a.polls);

/** One workflow's result; `polls`: the polls n8n began after the baseline and, of them, while the faults were on. */
function workflowResult(w: PolledWorkflow, executions: Execution[], tally: PollingTally, lastPollItems: string[], polls: { polls: number; pollsUnderFaults: number }) {
	return {
		key: w.key,
		title: w.title,
		parameters: { ...w.parameters, ...(w.pollTimes ? { pollTimes: w.pollTimes } : {}), options: { maxRetries: POLLING_PLAN.maxRetries, pageSize: w.pageSize } },
		...polls,
		/** n8n 2.41 saves each poll that failed after its retries as an execution with status error. */
		failedPolls: executions.filter((e) => e.status === 'error').length,
		/** A successful poll that finds nothing starts no execution. */
		executionsWithItems: executions.filter((e) => e.status === 'success' && nodeOutput(e, TRIGGER).length > 0).length,
		reported: tally.reported,
		missed: tally.missed,
		twice: tally.twice,
		wrong: tally.wrong,
		/** The items (`event id`) of the poll that reported the second sentinel: it must hold that one only. */
		lastPollItems,
		errorMessages: errorMessages(executions),
		examples: tally.examples,
	};
}

/**
 * Four active workflows with the ERP Polling Trigger on contacts (Max Retries 1) while the
 * sandbox's seeded faults strike the API and hundreds of changes are made through it over about six polls;
 * then the faults go off, and two sentinel contacts (company at the watched value) are created one after the
 * other, each awaited until every workflow has reported it: the first proves a clean poll has caught up, the
 * second that the next poll reports nothing but it. Every item is then judged against the ERP.
 */
export async function runPollingScenario(session: ReliabilitySession) {
	const { sandbox, n8n, ctx } = session;
	const plan = POLLING_PLAN;
	await sandbox.reset();
	await sandbox.clearFaults();
	await sandbox.seed({ contacts: plan.contacts });
	const baseline = companies(await sandbox.records('contacts'));

	const started = Date.now();
	const workflows: SavedWorkflow[] = [];
	const failures: string[] = [];
	const sentinels: Array<Array<Execution | null>> = [];
	let faultsOn = 0;
	let faultsOff = 0;
	// Offsets in n8n's log: after the activations, when the faults went on, when they went off.
	const logAt = { activated: 0, faultsOn: 0, faultsOff: 0 };
	let since = 0;
	const changer = new ContactChanger(session, scenarioRandom(ctx.faultSeed, plan.id), new Map(baseline) as Live);
	try {
		// Activation takes the baseline poll, without faults (a failing first poll would refuse the activation).
		for (const w of WORKFLOWS) workflows.push(await n8n.createActiveWorkflow(definition(session, w)));
		since = await sandbox.lastRequestSeq();
		logAt.activated = logSize(session);
		await sandbox.setFaults({ ...plan.faults, faultTiming: 'before', seed: ctx.faultSeed });
		faultsOn = Date.now();
		logAt.faultsOn = logSize(session);
		await changer.runAll(plan.faultyPhaseMs);
		await sandbox.clearFaults();
		faultsOff = Date.now();
		logAt.faultsOff = logSize(session);
		for (const n of [1, 2]) {
			const id = await changer.create(WATCHED_VALUE, `Sentinel ${n}`);
			sentinels.push(await waitForSentinel(session, workflows, id));
		}
	} finally {
		await sandbox.clearFaults();
		for (const workflow of workflows) await n8n.deactivateWorkflow(workflow.id).catch(() => undefined);
	}
	const wallMs = Date.now() - started;

	const truth: GroundTruth = {
		baseline,
		final: companies(await sandbox.records('contacts')),
		created: changer.log.created,
		deletedAt: changer.log.deletedAt,
		tookValue: changer.log.tookValue,
	};
	const requests = (await sandbox.requests(since)).filter((r) => r.seq > since);
	const log = readFileSync(ctx.n8nLogFile);
	const inFaults = (at: number) => at >= faultsOn && at < faultsOff;
	const results: Array<ReturnType<typeof workflowResult>> = [];
	for (const [i, w] of WORKFLOWS.entries()) {
		const executions = await allExecutions(session.n8n, workflows[i].id, true);
		const succeeded = executions.filter((e) => e.status === 'success');
		const tally = w.judge(truth, reportsOf(succeeded));
		const last = sentinels[1]?.[i];
		const lastPollItems = last ? reportsOf([last]).map((r) => `${r.event} ${r.id}`) : [];
		for (const [n, found] of sentinels.entries()) {
			if (!found[i]) failures.push(`${w.key}: sentinel ${n + 1} not reported within ${SENTINEL_WAIT_MS / 1000} s`);
		}
		if (last && lastPollItems.length !== 1) failures.push(`${w.key}: the poll after catching up reported ${lastPollItems.join(', ')}, not the second sentinel alone`);
		if (tally.missed + tally.twice + tally.wrong > 0) {
			failures.push(`${w.key}: ${tally.missed} missed, ${tally.twice} twice, ${tally.wrong} wrong (${tally.examples.join('; ')})`);
		}
		results.push(workflowResult(w, executions, tally, lastPollItems, {
			polls: pollsIn(log, logAt.activated, log.length, workflows[i]),
			pollsUnderFaults: pollsIn(log, logAt.faultsOn, logAt.faultsOff, workflows[i]),
		}));
	}
	const faulted = getRequests(requests.filter((r) => inFaults(Date.parse(r.at))));
	// A poll that succeeds reads at least every page of the fewest contacts the ERP held meanwhile.
	const p = plan.faults.dropRate + (1 - plan.faults.dropRate) * plan.faults.errorRate;
	const fewest = plan.contacts - changer.log.deletes;
	const chanceNoPollFails = WORKFLOWS.reduce(
		(chance, w, i) => chance * (1 - chanceSomeRequestFails(p, plan.maxRetries, 0, Math.ceil(fewest / w.pageSize))) ** results[i].pollsUnderFaults,
		1,
	);
	const failedPolls = sum(results, 'failedPolls');
	if (failedPolls === 0) failures.push('no poll failed: the faults did not test failed polls');

	return {
		id: plan.id,
		title: 'ERP Polling Trigger on contacts under faults',
		settings: {
			contacts: plan.contacts,
			faults: { ...plan.faults, faultTiming: 'before', seed: ctx.faultSeed, on: 'every API request while the changes are made' },
			maxRetries: plan.maxRetries,
			pollTimes: `every ${POLL.intervalMs / 1000} s`,
			faultyPhaseMs: plan.faultyPhaseMs,
			episodes: plan.episodes,
			watchedValue: WATCHED_VALUE,
		},
		contacts: { baseline: truth.baseline.size, final: truth.final.size },
		/** The two sentinels are among the creates. */
		changes: { creates: changer.log.creates, updates: changer.log.updates, deletes: changer.log.deletes },
		...sums(results, ['polls', 'pollsUnderFaults', 'failedPolls', 'reported', 'missed', 'twice', 'wrong'] as const),
		/** The trigger's GET requests while the faults were on. */
		requests: faulted,
		/** At most the chance that no poll under faults fails. */
		chanceNoPollFails,
		/** From the workflows' activation to the last sentinel reported. */
		wallMs,
		workflows: results,
		failures,
	};
}
