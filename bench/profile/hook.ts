/**
 * Loaded into n8n by the bench with NODE_OPTIONS=--require (n8n refuses --cpu-prof there): in n8n's main
 * process (`n8n start`), SIGUSR2 starts V8's sampling profiler and the next SIGUSR2 writes the profile to
 * BENCH_PROFILE_DIR/<n>.cpuprofile. Every other process that inherits the option is left alone.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

const dir = process.env.BENCH_PROFILE_DIR;
const SAMPLING_INTERVAL_US = 200;

if (dir && process.argv[2] === 'start') {
	let session: Session | undefined;
	let written = 0;
	process.on('SIGUSR2', () => {
		if (!session) {
			const started = new Session();
			started.connect();
			started.post('Profiler.enable', () =>
				started.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US }, () => started.post('Profiler.start')),
			);
			session = started;
			return;
		}
		const stopping = session;
		session = undefined;
		stopping.post('Profiler.stop', (error, result) => {
			const file = path.join(dir, `${++written}.cpuprofile`);
			writeFileSync(file, error ? JSON.stringify({ error: error.message }) : JSON.stringify(result.profile));
			stopping.disconnect();
		});
	});
}
