import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowExecuteMode,
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
export function additionalDataFor(
	credentialType: ICredentialType,
	credentials: Credentials,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData;
/** A workflow node as a test writes it: Start, ids and positions are added. */
export type TestNode = Omit<INode, 'id' | 'position' | 'typeVersion'> & Partial<Pick<INode, 'typeVersion'>>;
export function workflowOf(options: {
	nodeTypes: Record<string, INodeType>;
	nodes: TestNode[];
	connections?: IConnections;
	id?: string;
	name?: string;
}): Workflow;
export function freshExecutionData(workflow: Workflow, input?: INodeExecutionData[]): IRunExecutionData;
export function retryExecutionData(failed: IRun, current?: Workflow): IRunExecutionData;
export function executeWorkflow(options: {
	credentialType: ICredentialType;
	credentials: Credentials;
	workflow: Workflow;
	data: IRunExecutionData;
	mode?: WorkflowExecuteMode;
}): Promise<{ run: IRun; credentialReads: number }>;
export function runWorkflow(options: {
	credentialType: ICredentialType;
	nodeTypes: Record<string, INodeType>;
	nodes: TestNode[];
	connections?: IConnections;
	credentials: Credentials;
	input?: INodeExecutionData[];
}): Promise<WorkflowRun>;
export function stopEngineTimers(): void;
