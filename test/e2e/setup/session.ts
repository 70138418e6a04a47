import { connect, type Session } from '../../../tooling/host/session';

/** A test file's session, connected before its tests (beforeAll fills in what it returns, so read it inside them). */
export function useSession(timeoutMs?: number): Session {
	const session = {} as Session;
	beforeAll(async () => {
		Object.assign(session, await connect());
	}, timeoutMs);
	return session;
}
