/** Stops n8n (its whole process group) and the sandbox, and deletes n8n's temporary user folder. */
export default async function globalTeardown(): Promise<void> {
	const stack = globalThis.n8nErpReliabilityStack;
	globalThis.n8nErpReliabilityStack = undefined;
	await stack?.stop();
}
