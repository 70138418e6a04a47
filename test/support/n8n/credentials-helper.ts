import './environment';

import { Credentials, getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	ICredentialType,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	INodeType,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ICredentialsHelper, isExpression, NodeHelpers, UnexpectedError, Workflow } from 'n8n-workflow';

import { HarnessNodeTypes, nodeTypeName } from './node-types';

/** One stored credential: its type and the data a user typed into it. */
export interface StoredCredential {
	type: ICredentialType;
	data: ICredentialDataDecryptedObject;
}

/** A blank node, standing in for "no node" when credential data is resolved outside an execution (as n8n does). */
const blankNodeType: INodeType = {
	description: {
		displayName: 'Credential Resolver',
		name: 'credentialResolver',
		group: [],
		version: 1,
		description: '',
		defaults: {},
		inputs: [],
		outputs: [],
		properties: [],
	},
};
const resolverNode: INode = {
	id: 'credential-resolver',
	name: '',
	type: nodeTypeName(blankNodeType),
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/**
 * n8n's credentials helper without a database: credentials come from memory. Decryption applies the credential
 * type's defaults and resolves expressions in the data, and `authenticate` applies the type's `authenticate`
 * (a function, or IAuthenticateGeneric with `={{$credentials.x}}` expressions) the way n8n's own
 * CredentialsHelper (packages/cli) does.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	private readonly stored = new Map<string, StoredCredential>();

	constructor(credentials: StoredCredential[]) {
		super();
		for (const credential of credentials) {
			if (credential.type.extends?.length) {
				throw new UnexpectedError(
					`Credential type "${credential.type.name}" extends other types, which the harness does not support`,
				);
			}
			this.stored.set(credential.type.name, { type: credential.type, data: { ...credential.data } });
		}
	}

	private get(type: string): StoredCredential {
		const credential = this.stored.get(type);
		if (credential === undefined) {
			throw new UnexpectedError(`The harness was given no credentials of type "${type}"`);
		}
		return credential;
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.get(type).type.properties;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.get(typeName).type;
		if (authenticate === undefined) return requestOptions as IHttpRequestOptions;
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (!workflow || !node) {
			throw new UnexpectedError('Workflow and node are required for declarative credential authentication');
		}

		const resolve = (value: string): string => {
			if (!isExpression(value)) return value;
			const resolved = workflow.expression.getSimpleParameterValue(
				node,
				value,
				'internal',
				{ $credentials: credentials },
				undefined,
				'',
			);
			return resolved ? String(resolved) : '';
		};

		const options = requestOptions as unknown as Record<string, Record<string, string> | undefined>;
		options.headers ??= {};
		if (authenticate.type === 'generic') {
			for (const [target, entries] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(entries as Record<string, string>)) {
					const section = (options[target] ??= {});
					section[resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		_node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credential = this.get(typeName);
		const expirable = credential.type.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		const { preAuthentication } = credential.type;
		if (expirable === undefined || typeof preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;

		const output = await preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;
		Object.assign(credential.data, output);
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const { preAuthentication } = this.get(typeName).type;
		if (typeof preAuthentication !== 'function') return undefined;
		return (await preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject;
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string): Promise<Credentials> {
		const credentials = new Credentials(nodeCredentials, type);
		await credentials.setData(this.get(type).data);
		return credentials;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const credential = this.get(type);
		if (raw === true) return { ...credential.data };

		const withDefaults = NodeHelpers.getNodeParameters(
			credential.type.properties,
			credential.data as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });

		if (expressionResolveValues) {
			const { workflow, runExecutionData, runIndex, itemIndex, node, connectionInputData } =
				expressionResolveValues;
			try {
				return workflow.expression.getParameterValue(
					withDefaults as INodeParameters,
					runExecutionData,
					runIndex,
					itemIndex,
					node.name,
					connectionInputData,
					mode,
					additionalKeys,
					executeData,
					false,
					withDefaults,
				) as ICredentialDataDecryptedObject;
			} catch (error) {
				if (error instanceof Error) error.message += ' [Error resolving credentials]';
				throw error;
			}
		}

		const workflow = new Workflow({
			nodes: [{ ...resolverNode }],
			connections: {},
			active: false,
			nodeTypes: new HarnessNodeTypes([blankNodeType]),
		});
		const acquired = await workflow.expression.acquireIsolate();
		try {
			return workflow.expression.getComplexParameterValue(
				resolverNode,
				withDefaults as INodeParameters,
				mode,
				additionalKeys,
				undefined,
				undefined,
				withDefaults,
			) as ICredentialDataDecryptedObject;
		} finally {
			if (acquired) await workflow.expression.releaseIsolate();
		}
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.get(type).data = { ...data };
	}

	async updateCredentialsOauthTokenData(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.get(type).data.oauthTokenData = data.oauthTokenData;
	}
}
