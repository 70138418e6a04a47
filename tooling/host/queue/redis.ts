import net from 'node:net';
import path from 'node:path';

import { spawnGroup, stopGroup, untilReady, type Run } from '../processes';

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
export async function startRedis(redisServer: string, run: Run, port: number): Promise<Redis> {
	const logFile = path.join(run.dir, 'redis.log');
	const args = ['--bind', '127.0.0.1', '--port', String(port), '--dir', run.dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no'];
	const pid = spawnGroup(redisServer, args, { run, env: process.env, logFile });
	await untilReady(pid, () => answersPing(port), `Redis on port ${port}`, logFile, 15_000);
	return { port, pid, stop: () => stopGroup(pid, 5000) };
}
