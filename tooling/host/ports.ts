import net from 'node:net';

/** A TCP port free on 127.0.0.1 right now (the OS picks it). */
export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});
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
