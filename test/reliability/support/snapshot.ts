import type { SandboxAdmin } from '../../../sandbox/adminClient';

const RESOURCES = ['contacts', 'invoices', 'products', 'employees'] as const;

/** Every record the ERP holds, as JSON by resource and id. */
export async function snapshot(sandbox: SandboxAdmin): Promise<Map<string, string>> {
	const records = new Map<string, string>();
	for (const resource of RESOURCES) {
		for (const record of await sandbox.records(resource)) records.set(`${resource}/${record.id}`, JSON.stringify(record));
	}
	return records;
}

/** How many records were added, changed or removed between two snapshots. */
export function changedRecords(before: Map<string, string>, after: Map<string, string>): number {
	const keys = new Set([...before.keys(), ...after.keys()]);
	return [...keys].filter((key) => before.get(key) !== after.get(key)).length;
}
