/** Stops n8n and the sandbox and deletes the user folder (once: after the run, or on a signal). */
export default async function globalTeardown(): Promise<void> {
	const stack = globalThis.n8nErpEditorStack;
	globalThis.n8nErpEditorStack = undefined;
	await stack?.stop();
}
