import { stopCluster } from './stopCluster';

/** Stops the cluster; fails the run when any of its processes or ports is left. */
export default async function globalTeardown(): Promise<void> {
	await stopCluster((line) => process.stderr.write(`[queue] ${line}\n`));
}
