/**
 * Stops every process of the run and deletes its folder (at most once, whoever asks first: globalTeardown or a
 * signal); throws when any of its processes or ports is still there afterwards.
 */
export async function stopCluster(log: (line: string) => void): Promise<void> {
	const cluster = globalThis.n8nErpQueueCluster;
	globalThis.n8nErpQueueCluster = undefined;
	if (!cluster) return;
	const left = await cluster.stop();
	if (left.processes.length > 0 || left.ports.length > 0) {
		const processes = left.processes.map((p) => `${p.pid} ${p.command}`).join('; ');
		throw new Error(`left behind after stopping: processes [${processes}], ports [${left.ports.join(', ')}]`);
	}
	log(`stopped: no process of run ${cluster.run.id} and none of its ports left`);
}
