import { Table, type Row } from './table';
import type { Contact, Employee, Invoice, InvoiceStatus, PayrollRecord, Product, StockRow } from './types';

/** The whole in-memory state of the ERP, plus the indexes that keep rules and sweeps cheap. */
export class Store {
	readonly contacts = new Table<Contact>();

	readonly invoices = new Table<Invoice>();

	readonly products = new Table<Product>();

	readonly employees = new Table<Employee>();


	/** Per product, one row per warehouse. */
	readonly stock = new Map<number, StockRow[]>();

	/** Per employee, newest period first. */
	readonly payroll = new Map<number, PayrollRecord[]>();

	/** Invoices in `sent`: the only ones the overdue sweep looks at. */
	readonly sentInvoices = new Set<number>();

	private invoicesPerContact = new Map<number, number>();

	private productIdBySku = new Map<string, number>();

	/** Lower-cased e-mail → employee id. */
	private employeeIdByEmail = new Map<string, number>();

	private lastPayrollId = 0;

	/** The tables extensions keep their records in, by name (see extensionTable). */
	private extensionTables = new Map<string, Table<Row>>();

	clear(): void {
		this.contacts.clear();
		this.invoices.clear();
		this.products.clear();
		this.employees.clear();
		for (const table of this.extensionTables.values()) table.clear();
		this.stock.clear();
		this.payroll.clear();
		this.sentInvoices.clear();
		this.invoicesPerContact.clear();
		this.productIdBySku.clear();
		this.employeeIdByEmail.clear();
		this.lastPayrollId = 0;
	}

	addInvoice(invoice: Invoice): void {
		this.invoices.insert(invoice);
		this.invoicesPerContact.set(invoice.contact_id, this.invoiceCount(invoice.contact_id) + 1);
		if (invoice.status === 'sent') this.sentInvoices.add(invoice.id);
	}

	invoiceCount(contactId: number): number {
		return this.invoicesPerContact.get(contactId) ?? 0;
	}

	setInvoiceStatus(invoice: Invoice, status: InvoiceStatus): void {
		invoice.status = status;
		if (status === 'sent') this.sentInvoices.add(invoice.id);
		else this.sentInvoices.delete(invoice.id);
		this.invoices.touch();
	}

	addProduct(product: Product, stock: StockRow[]): void {
		this.products.insert(product);
		this.stock.set(product.id, stock);
		this.productIdBySku.set(product.sku, product.id);
	}

	productIdForSku(sku: string): number | undefined {
		return this.productIdBySku.get(sku);
	}

	changeSku(product: Product, sku: string): void {
		this.productIdBySku.delete(product.sku);
		product.sku = sku;
		this.productIdBySku.set(sku, product.id);
	}

	addEmployee(employee: Employee, payroll: PayrollRecord[] = []): void {
		this.employees.insert(employee);
		this.employeeIdByEmail.set(employee.email.toLowerCase(), employee.id);
		this.payroll.set(employee.id, payroll);
	}

	employeeIdForEmail(email: string): number | undefined {
		return this.employeeIdByEmail.get(email.toLowerCase());
	}

	nextPayrollId(): number {
		return ++this.lastPayrollId;
	}

	/** An extension's table of records, made on its first use; the core knows no extension's record type. */
	extensionTable<T extends Row>(name: string): Table<T> {
		let table = this.extensionTables.get(name);
		if (!table) {
			table = new Table<T>();
			this.extensionTables.set(name, table);
		}
		return table as Table<T>;
	}
}
