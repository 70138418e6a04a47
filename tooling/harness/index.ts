/** The harness's entry points: n8n-core's WorkflowExecute, LoadOptionsContext, PollContext, WebhookContext (README.md). */
export { runNode, type RunNodeOptions, type RunNodeResult } from './run-node';
export { runListSearch, runResourceMapping, type RunListSearchOptions, type RunResourceMappingOptions } from './run-list-search';
export { createPoller, type Poller, type PollResult, type Scheduler } from './run-poll';
export { runWebhook, type RunWebhookOptions, type WebhookCall, type WebhookHarness } from './run-webhook';
