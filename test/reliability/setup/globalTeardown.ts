/** Stops n8n (its whole process group) and the sandbox, and deletes n8n's temporary user folder (once: after the run, or on a signal). */
export default async function globalTeardown(): Promise<void> {
	const stack = globalThis.n8nErpReliabilityStack;
	globalThis.n8nErpReliabilityStack = undefined;
	await stack?.stop();
}
