import { execFileSync } from 'node:child_process';
import os from 'node:os';

export interface Machine {
	cpu: string;
	cores: number;
	memory_gb: number;
	os: string;
	/** Node running n8n and the raw client. */
	n8nNode: string;
	/** Node running the bench and the sandbox. */
	benchNode: string;
	/** 1-minute load average when the bench started and ended: other work on the machine skews the figures. */
	loadAvg: { start: number; end?: number };
}

export const loadAvg1 = (): number => Math.round(os.loadavg()[0] * 100) / 100;

export function describeMachine(n8nNodeBin: string): Machine {
	const cpus = os.cpus();
	return {
		cpu: cpus[0]?.model.trim() ?? 'unknown',
		cores: cpus.length,
		memory_gb: Math.round(os.totalmem() / 2 ** 30),
		os: `${os.type()} ${os.release()} ${os.arch()}`,
		n8nNode: execFileSync(n8nNodeBin, ['--version'], { encoding: 'utf8' }).trim(),
		benchNode: process.version,
		loadAvg: { start: loadAvg1() },
	};
}
