/**
 * The field lists the examples store, against what the node's field mapper method returns now. n8n's editor asks
 * the method again when it opens a node with a field mapper, and shows "Fields are outdated. Refresh to see the
 * changes." when the stored list (`columns.schema`) differs from the answer in count or in any field's
 * displayName, required, defaultMatch, display, canBeUsedToMatch or type. A user importing an example must not
 * meet that warning, so each stored list equals the method's answer for the sandbox ERP with the demo's records.
 */
import type { INodeParameters, ResourceMapperField } from 'n8n-workflow';

import { ErpApi } from '../../../credentials/ErpApi.credentials';
import { DEMO_SANDBOX } from '../../../tooling/host/demoWorkflows';
import { readExamples } from '../../../tooling/host/examples';
import { Erp } from '../../../nodes/Erp/Erp.node';
import { runResourceMapping } from '../../../tooling/harness';
import { useTestSandbox } from '../../../tooling/harness/sandbox';

const ERP_NODE_TYPE = 'n8n-nodes-erp.erp';

const mappers = readExamples().flatMap(({ file, workflow }) =>
	workflow.nodes
		// The ERP node and its Tool variant (an AI agent's or MCP server's tool) share the method.
		.filter((node) => [ERP_NODE_TYPE, `${ERP_NODE_TYPE}Tool`].includes(node.type) && node.parameters.columns !== undefined)
		.map((node) => ({ file, name: node.name, typeVersion: node.typeVersion, parameters: node.parameters as INodeParameters })),
);

const sandbox = useTestSandbox(DEMO_SANDBOX);

it('some example has an ERP node with a field mapper', () => {
	expect(mappers.length).toBeGreaterThan(0);
});

describe.each(mappers)('$file, node "$name"', ({ parameters, typeVersion }) => {
	it('stores the field list the method returns for the sandbox ERP, so the editor shows no "Fields are outdated"', async () => {
		const { fields } = await runResourceMapping({
			nodeType: new Erp(),
			parameterName: 'columns',
			parameters,
			typeVersion,
			credentialType: new ErpApi(),
			credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
		});
		const stored = (parameters.columns as { schema: ResourceMapperField[] }).schema;
		expect(stored).toEqual(fields);
	});
});
