import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import type { ExecutionLifecycleHooks } from 'n8n-core';

export type Credentials = Record<string, ICredentialDataDecryptedObject>;

export interface WorkflowRun {
	run: IRun;
	/** How often nodes read (n8n: fetched and decrypted) a credential during the run. */
	credentialReads: number;
	/** Output items of a node's first run, first output (or the given output index). */
	output(nodeName: string, outputIndex?: number): INodeExecutionData[];
}

export function nodeTypesFor(types: Record<string, INodeType>): INodeTypes;
export function additionalDataFor(credentialType: ICredentialType, credentials: Credentials, hooks?: ExecutionLifecycleHooks): IWorkflowExecuteAdditionalData;
export function runWorkflow(options: {
	credentialType: ICredentialType;
	nodeTypes: Record<string, INodeType>;
	nodes: Array<Omit<INode, 'id' | 'position' | 'typeVersion'> & Partial<Pick<INode, 'typeVersion'>>>;
	connections?: IConnections;
	credentials: Credentials;
	input?: INodeExecutionData[];
}): Promise<WorkflowRun>;
export function stopEngineTimers(): void;
