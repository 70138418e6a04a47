import net from 'node:net';
import path from 'node:path';

import { sleep, stopGroup } from '../../host/processGroup';
import { spawnOwned, type OwnedRun } from './ownedProcesses';

export interface Redis {
	port: number;
	pid: number;
	stop(): Promise<void>;
}

/** Whether a Redis server answers PING on 127.0.0.1:port. */
async function answersPing(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		const done = (ok: boolean) => {
			socket.destroy();
			resolve(ok);
		};
		socket.setTimeout(1000, () => done(false));
		socket.once('error', () => done(false));
		socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
		socket.once('connect', () => socket.write('PING\r\n'));
	});
}

/** A Redis of this run's own on 127.0.0.1:port, in memory only (nothing saved), logging into the run folder. */
export async function startRedis(redisServer: string, run: OwnedRun, port: number): Promise<Redis> {
	const logFile = path.join(run.dir, 'redis.log');
	const args = ['--bind', '127.0.0.1', '--port', String(port), '--dir', run.dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no'];
	const pid = spawnOwned(redisServer, args, { run, env: process.env, logFile });
	const stop = () => stopGroup(pid, 5000);
	const deadline = Date.now() + 15_000;
	while (!(await answersPing(port))) {
		if (Date.now() > deadline) {
			await stop();
			throw new Error(`Redis did not answer on port ${port} within 15 s: see ${logFile}`);
		}
		await sleep(100);
	}
	return { port, pid, stop };
}
