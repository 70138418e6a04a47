import type { Store } from '../store';
import type { Contact } from '../types';
import { FREE_MAIL } from './names';
import { company, country, emailPart, person, phone } from './people';
import { laterThan, spreadTimestamps, type Timeline } from './timeline';

const TIERS = ['gold', 'silver', 'bronze'] as const;

/** Contacts created over the last three years; most work for a company, a few have no phone or e-mail. */
export function seedContacts(store: Store, t: Timeline, count: number): void {
	const { rng } = t;
	const created = spreadTimestamps(t, count, 3 * 365);
	for (let i = 0; i < count; i++) {
		const { firstName, lastName } = person(rng);
		const where = country(rng);
		const employer = rng.chance(0.85) ? company(rng, where) : null;
		const domain = employer ? employer.domain : rng.pick(FREE_MAIL);
		const contact: Contact = {
			id: store.contacts.nextId(),
			first_name: firstName,
			last_name: lastName,
			email: rng.chance(0.95) ? `${emailPart(firstName)}.${emailPart(lastName)}@${domain}` : null,
			phone: rng.chance(0.9) ? phone(rng, where) : null,
			company: employer?.name ?? null,
			notes: rng.chance(0.1) ? 'Prefers contact by e-mail.' : null,
			custom_fields: rng.chance(0.2) ? { customer_tier: rng.pick(TIERS) } : {},
			created_at: created[i],
			updated_at: created[i],
		};
		if (rng.chance(0.3)) contact.updated_at = laterThan(t, contact.created_at);
		store.contacts.insert(contact);
	}
}
