import type { ImportedExample } from '../../../tooling/host/demoWorkflows';
import type { Owner } from '../../../tooling/host/restClient';
import type { Credential } from '../../../tooling/host/types';
import { readContext } from '../../../tooling/host/context';

/** What the editor suite's globalSetup hands to its test files. */
export interface EditorContext {
	n8nUrl: string;
	/** The sandbox's admin root (its /__sandbox routes). */
	sandboxUrl: string;
	owner: Owner;
	/** The owner's public API key (tooling/host/executions.ts reads executions through it). */
	apiKey: string;
	/** "ERP API": the sandbox's base URL and token. */
	credential: Credential;
	/** examples/*.json, imported as `npm start` imports them. */
	examples: ImportedExample[];
}

export const EDITOR_CONTEXT_ENV = 'N8N_ERP_EDITOR_CONTEXT';

export const readEditorContext = () => readContext<EditorContext>(EDITOR_CONTEXT_ENV);
