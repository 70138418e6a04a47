/** The resources the API document names, and `list`: any other list of the ERP, at the List Path the user gives. */
export type WatchedResource = 'contact' | 'invoice' | 'product' | 'employee' | 'list';

export type TriggerOn = 'recordAdded' | 'recordUpdated' | 'recordAddedOrUpdated' | 'fieldValue' | 'lowStock';

/** What each resource can be watched for. */
export const WATCHES: Record<WatchedResource, TriggerOn[]> = {
	contact: ['fieldValue', 'recordAdded', 'recordAddedOrUpdated', 'recordUpdated'],
	employee: ['fieldValue', 'recordAdded'],
	invoice: ['fieldValue', 'recordAdded', 'recordAddedOrUpdated', 'recordUpdated'],
	product: ['fieldValue', 'recordAdded', 'recordAddedOrUpdated', 'recordUpdated', 'lowStock'],
	list: ['fieldValue', 'recordAdded', 'recordAddedOrUpdated', 'recordUpdated'],
};

export const RESOURCES = Object.keys(WATCHES) as WatchedResource[];

/** The Trigger On values (`resource:triggerOn`) of these watches, of every resource (default) or of the ones given. */
export function on(triggerOns: TriggerOn[], resources: WatchedResource[] = RESOURCES): string[] {
	return resources.flatMap((resource) => WATCHES[resource].filter((t) => triggerOns.includes(t)).map((t) => `${resource}:${t}`));
}

/** Whether `value` is one of Trigger On's choices. */
export const isWatch = (value: string): boolean => RESOURCES.some((resource) => WATCHES[resource].some((t) => `${resource}:${t}` === value));
