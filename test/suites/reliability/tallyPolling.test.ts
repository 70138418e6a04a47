import { tallyChanges, tallyValue, type Company, type GroundTruth, type Report } from '../../reliability/polling/tallyPolling';

// The polling scenario's judging, fed with made-up histories: each count must be able to fail.

const V = 'Polled Holdings';
let seq = 0;
const at = (minute: number) => Date.UTC(2026, 0, 1, 0, minute);
const created = (id: number, company: Company, minute = 1): Report => ({ executionId: String(++seq), event: 'contact.created', id, company, polledAt: at(minute) });
const updated = (id: number, previous: Company, company: Company, minute = 1): Report => ({ executionId: String(++seq), event: 'contact.updated', id, company, previous, polledAt: at(minute) });
const became = (id: number, minute = 1): Report => ({ executionId: String(++seq), event: `contact.company.${V}`, id, company: V, polledAt: at(minute) });

/** Baseline: 1 (A), 2 (B), 3 (null). The scenario: 1 → C; 2 deleted at minute 2; 10 created (D), 11 created and deleted; 3 → V. */
const truth = (): GroundTruth => ({
	baseline: new Map<number, Company>([
		[1, 'A'],
		[2, 'B'],
		[3, null],
	]),
	final: new Map<number, Company>([
		[1, 'C'],
		[3, V],
		[10, 'D'],
	]),
	created: new Set([10, 11]),
	deletedAt: new Map([
		[2, at(2) - 1],
		[11, at(1) - 1],
	]),
	tookValue: new Set([3]),
});
const changes = (reports: Report[]) => tallyChanges(truth(), reports, 'contact.created', 'contact.updated');
const complete = () => [updated(1, 'A', 'C'), updated(3, null, V), created(10, 'D')];

describe('Record Added or Updated', () => {
	it.each([
		['nothing when every change is reported once', complete(), { reported: 3, missed: 0, twice: 0, wrong: 0, examples: [] }],
		['a created contact never reported, and a company not reported, as missed', [updated(3, null, V)], { missed: 2, twice: 0 }],
		['an update that does not start from the value last reported as missed', [updated(1, 'B', 'C'), updated(3, null, V), created(10, 'D')], { missed: 1, twice: 0 }],
		['a second create as twice', [...complete(), created(10, 'D')], { twice: 1 }],
		['a baseline contact reported as new as twice', [...complete(), created(1, 'C')], { twice: 1 }],
		['the same value twice in a row as twice', [...complete(), updated(1, 'C', 'C')], { twice: 1 }],
		['a report after the deletion as twice', [...complete(), updated(2, 'B', 'E', 3)], { twice: 1 }],
		['an update reported again (two overlapping polls) as twice only', [updated(1, 'A', 'C'), updated(1, 'A', 'C'), updated(3, null, V), created(10, 'D')], { missed: 0, twice: 1 }],
		['an unknown contact as wrong', [...complete(), created(99, 'X')], { wrong: 1 }],
	])('counts %s', (_, reports, expected) => {
		expect(changes(reports)).toMatchObject(expected);
	});
});

describe('Field Becomes a Value', () => {
	it.each([
		['nothing when the contact that took the value is reported once', [became(3)], { reported: 1, missed: 0, twice: 0, wrong: 0 }],
		['a contact that took the value, never reported, as missed', [], { missed: 1, twice: 0, wrong: 0 }],
		['a second report as twice', [became(3), became(3)], { missed: 0, twice: 1 }],
		['a contact that never took the value as wrong', [became(3), became(1)], { wrong: 1 }],
	])('counts %s', (_, reports, expected) => {
		expect(tallyValue(truth(), reports, `contact.company.${V}`, V)).toMatchObject(expected);
	});
});
