import type { RequestLogEntry } from '../../../sandbox/requestLog';
import type { Contact } from '../../../sandbox/types';
import type { OutputItem } from '../../../tooling/host/executions';

// Made-up ERP states, request logs and outputs for the judges of the reliability suite.

/** A request as the sandbox logs it, answered 200 unless `extra` says otherwise, `ms` after 2026-01-01 (its seq by default). */
export const logged = (seq: number, method: string, path: string, extra: Partial<RequestLogEntry> = {}, ms = seq): RequestLogEntry => ({
	seq,
	at: new Date(Date.UTC(2026, 0, 1) + ms).toISOString(),
	method,
	path,
	query: {},
	body: null,
	status: 200,
	auth: 'full',
	...extra,
});

/** A create of the contact with `email` (answered 201 unless `status` says otherwise), and a lookup of it. */
export const post = (seq: number, email: string, status: number | null = 201, fault?: RequestLogEntry['fault']) =>
	logged(seq, 'POST', '/contacts', { body: { email }, status, ...(fault ? { fault } : {}) });
export const lookup = (seq: number, email: string) => logged(seq, 'GET', '/contacts', { query: { email } });

/** A contact as the sandbox stores it. */
export const storedContact = (id: number, email: string, fields: Partial<Contact> = {}): Contact => ({
	id,
	first_name: 'A',
	last_name: null,
	email,
	phone: null,
	company: null,
	notes: null,
	custom_fields: {},
	created_at: '2026-01-01T00:00:00Z',
	updated_at: '2026-01-01T00:00:00Z',
	...fields,
});

/** An output item paired with input item `item`. */
export const ok = (item: number, json: Record<string, unknown>): OutputItem => ({ json, pairedItem: { item } });
