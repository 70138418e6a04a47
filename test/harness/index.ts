/**
 * An in-process n8n for tests: nodes run in n8n-core's real WorkflowExecute, resource-locator searches and field
 * mappers in its LoadOptionsContext, polling triggers in its PollContext and trigger webhooks in its
 * WebhookContext, with credentials applied by n8n's own rules and real HTTP. See README.md.
 */
export { runNode, type RunNodeOptions, type RunNodeResult } from './run-node';
export { runListSearch, runResourceMapping, type RunListSearchOptions, type RunResourceMappingOptions } from './run-list-search';
export { createPoller, type Poller, type PollResult } from './run-poll';
export { runWebhook, type RunWebhookOptions, type WebhookCall, type WebhookHarness } from './run-webhook';
