import { connect as connectE2e, type Session } from '../../host/session';
import { readReliabilityContext, type ReliabilityContext } from '../setup/context';

export interface ReliabilitySession extends Session {
	ctx: ReliabilityContext;
}

/** Connects the suite to the n8n and sandbox globalSetup started (works with every test/host helper). */
export async function connect(): Promise<ReliabilitySession> {
	return { ...(await connectE2e()), ctx: readReliabilityContext() };
}
