import type { RequestLogEntry } from '../../../sandbox/requestLog';
import type { OutputItem } from '../../../tooling/host/executions';
import { SUBJECTS } from '../../reliability/faults/scenarios';
import { type BatchInput, tally } from '../../reliability/faults/tally';
import { lookup, ok, post, storedContact } from './fixtures';

// The counting the fault scenarios rely on, fed with made-up ERP states: each check must be able to fail.

const contact = (id: number, email: string, company: string | null = null) => storedContact(id, email, { company });
const failed = (item: number, description: string): OutputItem => ({ json: { error: 'The ERP failed with a server error (500)', description }, pairedItem: { item } });
const MAYBE = 'The ERP may have done it anyway. Check in the ERP before running this item again.';

const creates: BatchInput[] = [
	{ kind: 'create', first: 'A', key: 'a@x.example' },
	{ kind: 'create', first: 'B', key: 'b@x.example' },
	{ kind: 'create', first: 'C', key: 'c@x.example' },
];

describe('tally', () => {
	test('a clean run: all succeeded, nothing lost or duplicated', () => {
		const stored = [contact(1, 'a@x.example'), contact(2, 'b@x.example'), contact(3, 'c@x.example')];
		const t = tally(creates, [ok(0, { id: 1 }), ok(1, { id: 2 }), ok(2, { id: 3 })], [], stored, []);
		expect(t).toMatchObject({ succeeded: 3, errorItems: 0, lost: 0, duplicated: 0, unpaired: 0, resent: 0 });
	});

	test('an item reported OK whose contact is missing is lost; a second contact with an input e-mail is a duplicate', () => {
		const stored = [contact(1, 'a@x.example'), contact(3, 'c@x.example'), contact(4, 'c@x.example')];
		const requests = [post(1, 'a@x.example', 201), post(2, 'c@x.example', 500), post(3, 'c@x.example', 201)];
		const t = tally(creates, [ok(0, { id: 1 }), ok(1, { id: 2 }), ok(2, { id: 4 })], [], stored, requests);
		expect(t).toMatchObject({ succeeded: 3, lost: 1, duplicated: 1, resent: 1 });
	});

	test('a committed create reported as an error must say the ERP may have done it; one that says so is an unresolved create', () => {
		const stored = [contact(1, 'a@x.example'), contact(2, 'b@x.example')];
		const items = [failed(0, MAYBE), failed(1, 'Try again later.'), ok(2, { id: 9 })];
		const t = tally(creates, items, [], stored, []);
		expect(t).toMatchObject({ errorItems: 2, committedDespiteError: 2, unclearErrors: 1, unresolvedCreates: 1, lost: 1 });
	});

	test('a create may be sent again after a 429, or for a keyed record after a lookup proved the first wrote nothing', () => {
		const stored = [contact(1, 'a@x.example'), contact(2, 'b@x.example'), contact(3, 'c@x.example')];
		const items = [ok(0, { id: 1 }), ok(1, { id: 2 }), ok(2, { id: 3 })];
		const before = { kind: 'status', source: 'random', afterCommit: false, appStatus: undefined } as const;
		const after = { kind: 'status', source: 'random', afterCommit: true, appStatus: 201 } as const;
		const requests = [
			post(1, 'a@x.example', 429),
			post(2, 'a@x.example', 201),
			post(3, 'b@x.example', 500, before),
			lookup(4, 'b@x.example'),
			post(5, 'b@x.example', 201),
			post(6, 'c@x.example', 500, after),
			lookup(7, 'c@x.example'),
			post(8, 'c@x.example', 201),
		];
		// Without a key nothing but the 429 may be repeated; with one, c was saved the first time: its lookup
		// should have found it.
		expect(tally(creates, items, [], stored, requests).resent).toBe(2);
		expect(tally(creates, items, [], stored, requests, true).resent).toBe(1);
		// No lookup in between: not even a keyed create may be repeated.
		expect(tally(creates, items, [], stored, [post(1, 'b@x.example', 500, before), post(2, 'b@x.example', 201)], true).resent).toBe(1);
	});

	test('an input without exactly one output item is unpaired', () => {
		const stored = [contact(1, 'a@x.example')];
		const t = tally(creates, [ok(0, { id: 1 }), ok(0, { id: 1 }), { json: { id: 1 } }], [], stored, []);
		expect(t.unpaired).toBe(4);
	});

	test('updates: OK without the new value is lost; reads: OK with another record\'s data is lost; new records are duplicates', () => {
		const before = [contact(1, 'a@x.example'), contact(2, 'b@x.example')];
		const after = [contact(1, 'a@x.example', 'New'), contact(2, 'b@x.example'), contact(3, 'b@x.example')];
		const updates: BatchInput[] = [{ kind: 'update', id: 1, value: 'New' }, { kind: 'update', id: 2, value: 'New' }];
		expect(tally(updates, [ok(0, { id: 1 }), ok(1, { id: 2 })], before, after, [])).toMatchObject({ succeeded: 2, lost: 1, duplicated: 1 });
		const reads: BatchInput[] = [{ kind: 'read', id: 1 }, { kind: 'read', id: 2 }];
		expect(tally(reads, [ok(0, { id: 1, email: 'a@x.example' }), ok(1, { id: 2, email: 'a@x.example' })], before, before, [])).toMatchObject({ lost: 1, duplicated: 0 });
	});

	test('deletes: OK with the contact still there is lost; a contact no item was about that changed or went is collateral', () => {
		const before = [contact(1, 'a@x.example'), contact(2, 'b@x.example'), contact(3, 'c@x.example'), contact(4, 'd@x.example')];
		const after = [contact(2, 'b@x.example'), contact(4, 'd@x.example', 'Changed')];
		const deletes: BatchInput[] = [{ kind: 'delete', id: 1 }, { kind: 'delete', id: 2 }];
		expect(tally(deletes, [ok(0, { id: 1, deleted: true }), ok(1, { id: 2, deleted: true })], before, after, [])).toMatchObject({
			lost: 1,
			collateral: 2,
		});
	});

	describe('orders through Custom API Call (unique references)', () => {
		const order = (id: number, reference: string, notes: string | null = null) => ({ id, reference, customer: 'A', notes });
		const orderPost = (seq: number, reference: string, status: number | null, fault?: RequestLogEntry['fault']): RequestLogEntry => ({
			...post(seq, '', status, fault),
			path: '/orders',
			body: { reference, customer: 'A', total: 10 },
		});
		const byReference = (seq: number, reference: string): RequestLogEntry => ({ ...lookup(seq, ''), path: '/orders', query: { reference, page: '1', per_page: '100' } });
		const orders: BatchInput[] = [
			{ kind: 'create', first: 'A', key: 'R1' },
			{ kind: 'create', first: 'B', key: 'R2' },
		];
		const stored = [order(1, 'R1'), order(2, 'R2')];
		const saved = { kind: 'status', source: 'random', afterCommit: true, appStatus: 201 } as const;
		const refusedFirst = { kind: 'status', source: 'random', afterCommit: false, appStatus: undefined } as const;

		test('a POST sent again after the ERP saved the order is written twice, although the ERP refused it', () => {
			const requests = [orderPost(1, 'R1', 500, saved), orderPost(2, 'R1', 422), orderPost(3, 'R2', 201)];
			const items = [failed(0, 'The ERP refused to POST /orders (422): reference: is already taken by order 1'), ok(1, { id: 2, reference: 'R2' })];
			expect(tally(orders, items, [], stored, requests, false, SUBJECTS.order)).toMatchObject({ duplicated: 1, resent: 1, lost: 0 });
		});

		test('with Key Field: looked up before, sent again once a lookup showed the first wrote nothing: nothing twice', () => {
			const requests = [byReference(1, 'R1'), orderPost(2, 'R1', 500, refusedFirst), byReference(3, 'R1'), orderPost(4, 'R1', 201), byReference(5, 'R2'), orderPost(6, 'R2', 201)];
			const items = [ok(0, { id: 1, reference: 'R1' }), ok(1, { id: 2, reference: 'R2' })];
			expect(tally(orders, items, [], stored, requests, true, SUBJECTS.order)).toMatchObject({ succeeded: 2, lost: 0, duplicated: 0, resent: 0 });
			expect(tally(orders, [ok(0, { id: 2, reference: 'R2' }), ok(1, { id: 2, reference: 'R2' })], [], stored, requests, true, SUBJECTS.order).lost).toBe(1);
		});

		test('reads and updates are judged by the reference and the notes', () => {
			const updates: BatchInput[] = [{ kind: 'update', id: 1, value: 'x' }];
			expect(tally(updates, [ok(0, { id: 1 })], stored, [order(1, 'R1', 'x'), order(2, 'R2')], [], false, SUBJECTS.order)).toMatchObject({ lost: 0, collateral: 0 });
			expect(tally(updates, [ok(0, { id: 1 })], stored, stored, [], false, SUBJECTS.order).lost).toBe(1);
			const reads: BatchInput[] = [{ kind: 'read', id: 2 }];
			expect(tally(reads, [ok(0, { id: 2, reference: 'R1' })], stored, stored, [], false, SUBJECTS.order).lost).toBe(1);
		});
	});
});
