/** Stops n8n (its whole process group) and the sandbox; deletes the user folder unless it was asked for. */
export default async function globalTeardown(): Promise<void> {
	const stack = globalThis.n8nErpE2eStack;
	globalThis.n8nErpE2eStack = undefined;
	await stack?.stop();
}
