/** Stops the cluster (once: after the suite, or on a signal); fails the run when any of its processes or ports is left. */
export default async function globalTeardown(): Promise<void> {
	const cluster = globalThis.n8nErpQueueCluster;
	globalThis.n8nErpQueueCluster = undefined;
	await cluster?.stop();
}
