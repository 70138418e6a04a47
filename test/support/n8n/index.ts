/**
 * An in-process n8n for tests: nodes run in n8n-core's real WorkflowExecute, resource-locator searches and field
 * mappers in its LoadOptionsContext, polling triggers in its PollContext and trigger webhooks in its
 * WebhookContext, with credentials applied by n8n's own rules and real HTTP. See environment.ts for the expression engine used on Node 20.
 */
export { runNode, type RunNodeOptions, type RunNodeResult } from './run-node';
export { runListSearch, type RunListSearchOptions } from './run-list-search';
export { createPoller, type Poller, type PollResult } from './run-poll';
export { runResourceMapping, type RunResourceMappingOptions } from './run-resource-mapping';
export { runWebhook, type RunWebhookOptions, type WebhookCall, type WebhookHarness } from './run-webhook';
export { START_NODE_NAME } from './workflow';
export { expressionEngine } from './environment';
