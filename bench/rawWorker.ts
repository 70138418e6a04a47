import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

import type { RawReply, RawResult, RawTask } from './rawTasks';

/** The raw client's process (rawClient.ts), started once so that its runs after the warm-up are warm like n8n's. */
export class RawWorker {
	private constructor(private readonly child: ChildProcess) {}

	static start(nodeBin: string): RawWorker {
		const child = fork(path.join(__dirname, 'rawClient.js'), [], { execPath: nodeBin, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
		return new RawWorker(child);
	}

	async run(task: RawTask): Promise<RawResult> {
		return await new Promise((resolve, reject) => {
			const onExit = (code: number | null) => reject(new Error(`the raw client exited (${code}) during ${task.kind}`));
			this.child.once('exit', onExit);
			this.child.once('message', (reply: RawReply) => {
				this.child.off('exit', onExit);
				if (reply.ok) resolve(reply.result);
				else reject(new Error(`raw client, ${task.kind}: ${reply.error}`));
			});
			this.child.send(task);
		});
	}

	stop(): void {
		this.child.kill();
	}
}
