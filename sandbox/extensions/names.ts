/**
 * Endpoints the API document does not list, as an ERP's own extension adds them. A sandbox serves one only when
 * started with it (`extensions`, `--extension`): without, it is exactly the document and answers them 404.
 * Each name has its routes in ./index.ts.
 */
export const EXTENSION_NAMES = ['orders'] as const;

export type ExtensionName = (typeof EXTENSION_NAMES)[number];

/** The names, each once; an unknown one throws, naming the known ones. */
export function resolveExtensions(names: readonly string[]): ExtensionName[] {
	for (const name of names) {
		if (!(EXTENSION_NAMES as readonly string[]).includes(name)) {
			throw new Error(`unknown extension ${name}: one of ${EXTENSION_NAMES.join(', ')}`);
		}
	}
	return [...new Set(names as ExtensionName[])];
}
