import type { ApiHandler } from '../resources/context';
import type { Router } from '../router';
import type { ExtensionName } from './names';
import { orderRoutes } from './orders';

const EXTENSIONS: Record<ExtensionName, (router: Router<ApiHandler>) => void> = { orders: orderRoutes };

export function extensionRoutes(router: Router<ApiHandler>, names: readonly ExtensionName[]): void {
	for (const name of names) EXTENSIONS[name](router);
}
