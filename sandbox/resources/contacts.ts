import { nowIso } from '../dates';
import { ApiError, notFound } from '../errors';
import { contactUpdatedData } from '../events';
import { containsText, listSorts, listTable, type Filter } from '../listing';
import { stringParam, timestampParam } from '../query';
import type { Router } from '../router';
import { ruleSchemas } from '../rules';
import type { Contact, CustomFields } from '../types';
import { FieldErrors, readFields, type Values } from '../validate';
import type { ApiContext, ApiHandler } from './context';
import { deletedAnswer } from './deleted';
import { applyChanges, readUpdate } from './update';

const schemaFor = ruleSchemas('contact', {
	first_name: { type: 'string', required: true, max: 100 },
	last_name: { type: 'string', nullable: true, max: 100 },
	email: { type: 'string', nullable: true, format: 'email' },
	phone: { type: 'string', nullable: true, format: 'phone' },
	company: { type: 'string', nullable: true, max: 200 },
	notes: { type: 'string', nullable: true },
	custom_fields: { type: 'custom_fields' },
});

const sorts = listSorts<Contact>({ name: (c) => `${c.last_name ?? ''}\u0000${c.first_name}`.toLowerCase() });

function filters(query: URLSearchParams): Array<Filter<Contact>> {
	const tests: Array<Filter<Contact>> = [];
	const search = stringParam(query, 'search')?.toLowerCase();
	if (search) tests.push((c) => containsText(search, c.first_name, c.last_name, c.email, c.company));
	const email = stringParam(query, 'email');
	if (email !== undefined) tests.push((c) => c.email === email);
	const company = stringParam(query, 'company');
	if (company !== undefined) tests.push((c) => c.company === company);
	const after = timestampParam(query, 'created_after');
	if (after !== undefined) tests.push((c) => c.created_at > after);
	const before = timestampParam(query, 'created_before');
	if (before !== undefined) tests.push((c) => c.created_at < before);
	return tests;
}

export function findContact(ctx: ApiContext): Contact {
	const contact = ctx.state.store.contacts.get(ctx.id);
	if (!contact) throw notFound(`Contact ${ctx.id} not found`);
	return contact;
}

const list: ApiHandler = (ctx) => listTable(ctx.state.store.contacts, ctx, filters, sorts);

/** Every field a client writes, absent ones defaulted: a create, or a PUT that replaces the record. */
const writable = (v: Values): Omit<Contact, 'id' | 'created_at' | 'updated_at'> => ({
	first_name: v.first_name as string,
	last_name: (v.last_name as string | undefined) ?? null,
	email: (v.email as string | undefined) ?? null,
	phone: (v.phone as string | undefined) ?? null,
	company: (v.company as string | undefined) ?? null,
	notes: (v.notes as string | undefined) ?? null,
	custom_fields: (v.custom_fields as CustomFields | undefined) ?? {},
});

const create: ApiHandler = ({ state, body, variant }) => {
	const errors = new FieldErrors();
	const v = readFields(body, schemaFor(variant.rules), 'create', errors);
	errors.throwIfAny();
	const now = nowIso();
	const contact: Contact = { id: state.store.contacts.nextId(), ...writable(v), created_at: now, updated_at: now };
	state.store.contacts.insert(contact);
	state.webhooks.emit('contact.created', contact);
	const data = { id: contact.id, first_name: contact.first_name, created_at: contact.created_at };
	return { status: 201, data, created: `/contacts/${contact.id}` };
};

const update: ApiHandler = (ctx) => {
	const contact = findContact(ctx);
	const values = readUpdate(ctx, schemaFor(ctx.variant.rules), writable);
	const changed = applyChanges(contact, values, ctx.variant.put);
	if (changed.length > 0) {
		contact.updated_at = nowIso();
		ctx.state.store.contacts.touch();
		ctx.state.webhooks.emit('contact.updated', contactUpdatedData(contact, changed));
	}
	return { data: contact };
};

const remove: ApiHandler = (ctx) => {
	const contact = findContact(ctx);
	if (ctx.state.store.invoiceCount(contact.id) > 0) {
		throw new ApiError(422, `Contact ${contact.id} has invoices and cannot be deleted`, { id: ['contact has invoices'] });
	}
	ctx.state.store.contacts.remove(contact.id);
	return deletedAnswer(contact, ctx.variant);
};

export function contactRoutes(router: Router<ApiHandler>): void {
	router
		.on('GET', '/contacts', list)
		.on('POST', '/contacts', create)
		.on('GET', '/contacts/:id', (ctx) => ({ data: findContact(ctx) }))
		.on('PUT', '/contacts/:id', update)
		.on('DELETE', '/contacts/:id', remove);
}
