import net from 'node:net';

/**
 * Below Linux's default ephemeral range (32768–60999): the OS gives ports from that range to `listen(0)`, as the
 * in-process sandboxes of the unit tests are started, and while one of those is down for a restart its port is free.
 * An n8n started beside it on a port the OS picked could take it (seen in CI: the sandbox's admin requests answered
 * by n8n). Ports taken from here the OS never hands out by itself.
 */
const RANGE = { from: 20_000, to: 32_000 };

/** A TCP port free on 127.0.0.1 right now, drawn from RANGE. */
export async function freePort(): Promise<number> {
	for (let attempt = 0; attempt < 100; attempt++) {
		const port = RANGE.from + Math.floor(Math.random() * (RANGE.to - RANGE.from));
		if (await portIsFree(port)) return port;
	}
	throw new Error(`no free port between ${RANGE.from} and ${RANGE.to} after 100 tries`);
}

export const portIsFree = (port: number): Promise<boolean> =>
	new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});

/** Fails early with a clear message when a port the user chose is taken. */
export async function assertPortFree(port: number, envName: string): Promise<void> {
	if (!(await portIsFree(port))) throw new Error(`Port ${port} is in use: stop what uses it or set ${envName} to another port`);
}
