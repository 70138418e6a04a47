import type { N8nLine } from './types';

/** n8n 2.x (tested: TESTED_N8N_VERSIONS.current). */
export const line2: N8nLine = {
	name: '2.x',
	// Activation then takes effect before the activate call answers, instead of on the publication outbox's next poll.
	environment: { N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'false' },
	readyPath: '/healthz/readiness',
	newWorkflowFields: {},
	// It runs the saved workflow.
	manualRunBody: (_workflow, triggerName) => ({ triggerToStartFrom: { name: triggerName } }),
	// The Query holds each tool's arguments under its name (spaces as underscores).
	toolExecutorQuery: (toolName, args) => ({ [toolName.replaceAll(' ', '_')]: args }),
	credentialTestRuleMessages: true,
	// It refuses a Poll Time firing more often than every minute, but not six of them, each at its own second.
	shortestPoll: {
		pollTimes: { item: [0, 10, 20, 30, 40, 50].map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })) },
		intervalMs: 10_000,
	},
};
