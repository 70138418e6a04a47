declare global {
	// What a real-n8n suite's globalSetup started, for globalTeardown: jest runs both in one process.
	var n8nErpStarted: { stop(): Promise<void> } | undefined;
}

/** Stops what the suite's globalSetup started (once: after the run, or on a signal); the queue cluster's stop() fails the run when a process or port is left. */
export default async function globalTeardown(): Promise<void> {
	const started = globalThis.n8nErpStarted;
	globalThis.n8nErpStarted = undefined;
	await started?.stop();
}
