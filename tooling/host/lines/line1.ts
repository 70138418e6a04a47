import type { N8nLine } from './types';

/** n8n 1.x (tested: TESTED_N8N_VERSIONS.v1). */
export const line1: N8nLine = {
	name: '1.x',
	// 1.123.81's default `vm` engine evaluates $('Node').item and .first() to null, in n8n's own nodes too (test/e2e/versions.e2e.test.ts shows this setting works).
	environment: { N8N_EXPRESSION_ENGINE: 'legacy' },
	// Its /healthz/readiness answers 200 once the database is migrated, before the REST routes exist (404 then).
	readyPath: '/rest/settings',
	// Its database refuses a workflow without `active` (NOT NULL); 2.x sets it itself.
	newWorkflowFields: { active: false },
	// It runs the workflow the body carries, not the saved one.
	manualRunBody: (workflow, triggerName) => ({ workflowData: workflow, triggerToStartFrom: { name: triggerName } }),
	// The Query is the one connected tool's arguments.
	toolExecutorQuery: (_toolName, args) => args,
	credentialTestRuleMessages: false,
	shortestPoll: { pollTimes: { item: [{ mode: 'custom', cronExpression: '0,10,20,30,40,50 * * * * *' }] }, intervalMs: 10_000 },
};
