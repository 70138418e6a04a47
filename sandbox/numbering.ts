/** Human-readable numbers the service assigns next to the ids. */

export const invoiceNumber = (id: number): string => `INV-${String(id).padStart(6, '0')}`;

export const employeeNumber = (id: number): string => `EMP-${String(id).padStart(4, '0')}`;
