import { byId } from '../../../tooling/host/workflows';
import type { ReliabilitySession } from '../setup/context';

/** The expected answer: what the message and description must say, and what may reach the ERP. */
export interface NodeExpectation {
	/** Must match the error message plus description: the field or parameter at fault. */
	field: RegExp;
	/** Must match the error message plus description: what to do about it. */
	fix: RegExp;
	/** Exactly the API requests the sandbox must receive, as `METHOD /path status`; [] when the node must catch it first. */
	requests: string[];
}

/**
 * A hostile node configuration, run in a real workflow (Webhook → ERP, stop on error). Before each case the
 * sandbox holds 3 contacts, invoices, products and employees, each with IDs 1 to 3.
 */
export interface NodeCase {
	id: string;
	title: string;
	parameters: Record<string, unknown>;
	/** The webhook body, read by expressions as `$json.body`. */
	data?: Record<string, unknown>;
	/** Another credential: a stored one, or the full token with this Base URL (given the sandbox's URL). */
	credential?: 'wrongToken' | 'readOnly' | { baseUrl: (sandboxUrl: string) => string | Promise<string> };
	/** Sets up the sandbox just before the run; what it returns, if anything, is the webhook body instead of `data`. */
	prepare?: (session: ReliabilitySession) => Promise<Record<string, unknown> | void>;
	expect: NodeExpectation;
}

export const byIdFromData = byId('={{ $json.body.id }}');
