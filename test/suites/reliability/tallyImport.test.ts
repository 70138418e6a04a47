import type { LoggedFault } from '../../../sandbox/requestLog';
import { scenarioRandom } from '../../reliability/setup/context';
import { importChecks, type ImportRow, tallyImport } from '../../reliability/imports/tallyImport';
import { createFaultPlan, type ImportScenario } from '../../reliability/imports/scenarios';
import { logged, lookup, ok, post, storedContact } from './fixtures';

// The counting and the checks the imports are judged by, fed with made-up ERP states and request logs: each
// check must be able to fail.

const contact = (id: number, email: string, first_name: string) => storedContact(id, email, { first_name, last_name: 'Imported' });
const rows = (first: string): ImportRow[] => ['a', 'b', 'c'].map((key) => ({ first_name: `${first} ${key}`, last_name: 'Imported', email: `${key}@x.example` }));
const savedThen = (kind: 'status' | 'drop'): LoggedFault => ({ kind, source: 'queue', afterCommit: true, appStatus: 201 });
const noFault: LoggedFault = { kind: 'latency', source: 'queue', afterCommit: false };

const other = contact(9, 'other@x.example', 'Other');
const firstRun = rows('First');
const created = [1, 2, 3].map((id, i) => contact(id, firstRun[i].email, firstRun[i].first_name));
const firstRequests = firstRun.flatMap((row, i) => [lookup(2 * i + 1, row.email), post(2 * i + 2, row.email)]);
const scenario: ImportScenario = { id: 'made-up', rows: 3, runs: 2, otherContacts: 1, options: { concurrency: 1 } };
const failing = (checks: ReturnType<typeof importChecks>) => checks.filter((c) => !c.holds).map((c) => c.must);

describe('tallyImport and importChecks', () => {
	test('a first run that creates every row once passes every check', () => {
		const items = created.map((c, i) => ok(i, { ...c, action: 'created' }));
		const t = tallyImport(firstRun, items, [other], [other, ...created], firstRequests);
		expect(t).toMatchObject({ newRows: 3, created: 3, updated: 0, wrongAction: 0, lost: 0, stored: 3, contactsAfter: 4, duplicated: 0, collateral: 0 });
		expect(t).toMatchObject({ posts: 3, postsForExistingKeys: 0, newRowsPostedOnce: 3, recovered: 0, faultedPosts: {}, requestsByMethod: { GET: 3, POST: 3 } });
		expect(failing(importChecks(scenario, 1, t, 'success'))).toEqual([]);
	});

	test('a second run that POSTs an e-mail the ERP holds, says created where it must update and stores the wrong name fails', () => {
		const second = rows('Second');
		const after = [other, contact(1, 'a@x.example', 'Second a'), contact(2, 'b@x.example', 'First b'), contact(3, 'c@x.example', 'Second c'), contact(4, 'c@x.example', 'Second c')];
		const items = [ok(0, { id: 1, action: 'updated' }), ok(1, { id: 2, action: 'updated' }), ok(2, { id: 4, action: 'created' })];
		const requests = [lookup(1, 'a@x.example'), logged(2, 'PUT', '/contacts/1'), lookup(3, 'c@x.example'), post(4, 'c@x.example')];
		const t = tallyImport(second, items, [other, ...created], after, requests);
		expect(t).toMatchObject({ newRows: 0, updated: 2, created: 1, wrongAction: 1, lost: 1, stored: 1, duplicated: 1, posts: 1, postsForExistingKeys: 1 });
		expect(failing(importChecks(scenario, 2, t, 'success'))).toEqual([
			'0 items say created and 3 say updated, as the ERP\'s records before the run call for (created where no contact had the row\'s e-mail)',
			"every item reported OK is borne out by the ERP: the contact with the item's ID holds the row's e-mail and this run's first name",
			"each of the 3 rows' e-mails is on one contact, holding this run's first name",
			'the ERP holds 4 contacts afterwards: the 1 others and one per row',
			"no row's e-mail is on two contacts",
			'no POST: every e-mail was in the ERP already',
			'no POST for an e-mail the ERP already held when the POST arrived',
		]);
	});

	test('a POST of an e-mail saved earlier in the run counts; one after a fault that saved nothing does not', () => {
		const requests = [post(1, 'a@x.example', 500, savedThen('status')), post(2, 'a@x.example'), post(3, 'b@x.example', 500, { kind: 'status', source: 'queue', afterCommit: false }), post(4, 'b@x.example')];
		const t = tallyImport(firstRun, [], [], created, requests);
		expect(t).toMatchObject({ postsForExistingKeys: 1, posts: 4, newRowsPostedOnce: 0 });
	});

	test('the items marked recovered must be exactly those whose POST was faulted; a queued "no fault" is none', () => {
		const requests = [
			post(1, 'a@x.example', 500, savedThen('status')),
			post(2, 'b@x.example', null, savedThen('drop')),
			post(3, 'c@x.example', 201, noFault),
			logged(4, 'GET', '/contacts', { query: { email: 'c@x.example' }, status: 500, fault: { kind: 'status', source: 'random', afterCommit: false } }),
		];
		const items = [ok(0, { id: 1, action: 'created', recovered: true }), ok(1, { id: 2, action: 'created' }), ok(2, { id: 3, action: 'created', recovered: true })];
		const t = tallyImport(firstRun, items, [], created, requests);
		expect(t).toMatchObject({ recovered: 2, recoveredUnfaulted: 1, faultedUnrecovered: 1, faultedOthers: 1, faultedPosts: { status: { struck: 1, saved: 1 }, drop: { struck: 1, saved: 1 } } });
		const withFaults: ImportScenario = {
			...scenario,
			otherContacts: 0,
			createFaults: [
				{ share: 1 / 3, fault: { kind: 'status', status: 500, afterCommit: true } },
				{ share: 2 / 3, fault: { kind: 'drop', afterCommit: true } },
			],
		};
		expect(failing(importChecks(withFaults, 1, t, 'success'))).toEqual([
			'2 POSTs dropped after the ERP saved the contact (every fault queued strikes)',
			'no request but a POST is faulted: every lookup, read and update is answered',
			'the items marked recovered are exactly the 3 whose POST was faulted',
		]);
	});

	test('error items, unresolved creates, and rows without exactly one output item', () => {
		const maybe = { error: 'The ERP failed with a server error (500)', description: 'The ERP may have done it anyway. Check in the ERP.' };
		const items = [ok(0, maybe), ok(1, { id: 2, action: 'created' }), ok(1, { id: 2, action: 'created' }), { json: { id: 3 } }];
		const t = tallyImport(firstRun, items, [], created, firstRequests);
		expect(t).toMatchObject({ errorItems: 1, unresolvedCreates: 1, succeeded: 2, outputItems: 4, unpaired: 3 });
		expect(failing(importChecks(scenario, 1, t, 'error'))).toEqual(
			expect.arrayContaining(['the execution ends "success" (On Error: Continue is on)', 'no error item says the ERP may have done it: 0 unresolved creates']),
		);
	});
});

describe('createFaultPlan', () => {
	const faults = [
		{ share: 0.2, fault: { kind: 'status', status: 500, afterCommit: true } },
		{ share: 0.1, fault: { kind: 'drop', afterCommit: true } },
	] as const;
	const plan = (seed: number) => createFaultPlan(1000, [...faults], scenarioRandom(seed, 'import'));

	test('exact shares of the creates, in an order the run seed replays', () => {
		const counts = (p: ReturnType<typeof plan>) => [faults[0], faults[1], null].map((f) => p.filter((entry) => entry === f).length);
		expect(counts(plan(42))).toEqual([200, 100, 700]);
		expect(plan(42)).toEqual(plan(42));
		expect(plan(42)).not.toEqual(plan(43));
		expect(() => createFaultPlan(10, [{ share: 0.6, fault: faults[0].fault }, { share: 0.5, fault: faults[1].fault }], scenarioRandom(1, 'x'))).toThrow();
	});
});
