import type { ApiHandler } from '../resources/context';
import type { Router } from '../router';
import { orderRoutes } from './orders';

/**
 * Endpoints the API document does not list, as an ERP's own extension adds them. A sandbox serves one only when
 * started with it (`extensions`, `--extension`): without, it is exactly the document and answers them 404.
 */
const EXTENSIONS = { orders: orderRoutes } satisfies Record<string, (router: Router<ApiHandler>) => void>;

export type ExtensionName = keyof typeof EXTENSIONS;

export const EXTENSION_NAMES = Object.keys(EXTENSIONS) as ExtensionName[];

/** The names, each once; an unknown one throws, naming the known ones. */
export function resolveExtensions(names: readonly string[]): ExtensionName[] {
	for (const name of names) {
		if (!(name in EXTENSIONS)) throw new Error(`unknown extension ${name}: one of ${EXTENSION_NAMES.join(', ')}`);
	}
	return [...new Set(names as ExtensionName[])];
}

export function extensionRoutes(router: Router<ApiHandler>, names: readonly ExtensionName[]): void {
	for (const name of names) EXTENSIONS[name](router);
}
