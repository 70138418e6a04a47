import type { AxiosInstance } from 'axios';

import type { Order } from '../../sandbox/extensions/orders';
import type { Contact, Employee, Invoice, Product } from '../../sandbox/types';

/** Creating records through the real API; each asserts the create succeeded. */

async function post<T>(api: AxiosInstance, path: string, body: object): Promise<T> {
	const response = await api.post(path, body);
	if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.data)}`);
	return response.data.data as T;
}

export async function createContact(api: AxiosInstance, fields: Partial<Contact> = {}): Promise<Contact> {
	const { id } = await post<{ id: number }>(api, '/contacts', {
		first_name: 'Anna',
		last_name: 'Schmidt',
		email: 'anna.schmidt@example.com',
		phone: '+49 30 1234567',
		company: 'Nordwind GmbH',
		...fields,
	});
	return (await api.get(`/contacts/${id}`)).data.data as Contact;
}

export const createInvoice = (api: AxiosInstance, contactId: number, fields: Partial<Invoice> = {}): Promise<Invoice> =>
	post<Invoice>(api, '/invoices', {
		contact_id: contactId,
		lines: [{ description: 'Consulting', quantity: 2, unit_price: 100, tax_rate: 19 }],
		...fields,
	});

export const createProduct = (api: AxiosInstance, fields: Partial<Product> = {}): Promise<Product> =>
	post<Product>(api, '/products', { sku: 'CHAIR-1', name: 'Office Chair', ...fields });

export const createEmployee = (api: AxiosInstance, fields: Partial<Employee> = {}): Promise<Employee> =>
	post<Employee>(api, '/employees', { first_name: 'Lukas', last_name: 'Weber', email: 'lukas.weber@example.com', ...fields });

/** Needs a sandbox serving the orders extension (`extensions: ['orders']`). */
export const createOrder = (api: AxiosInstance, fields: Record<string, unknown> = {}): Promise<Order> =>
	post<Order>(api, '/orders', { reference: 'SO-1001', customer: 'Nordwind GmbH', total: 249.9, ...fields });

export function daysFromToday(days: number): string {
	return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
