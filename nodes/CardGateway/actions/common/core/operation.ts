// What an operation is: its definition (an operation file), its place in the node, and the request
// the pipeline builds for one item.
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { OperationId } from '../../../../shared/protocol/catalogue';
import type { EndpointChoice } from '../../../../shared/transport';

import type { Field } from './fields';

/** Values already checked, by parameter name (wire form). */
export type CheckedValues = Readonly<Record<string, string>>;

/**
 * What an operation's own file declares. What it does to money, its status query and its wire form
 * are its catalogue line (`gateway`); its place in the node (resource, value, label) is its entry in
 * the resource's list (defineResource).
 */
export interface OperationDefinition {
	/** The catalogue entry the request is built from. */
	gateway: OperationId;
	/** Its entry in the resource's Operation menu. */
	menu: { name: string; description: string; action: string };
	/** Top-level parameters the user must fill in (a new merchant order ID may stay empty). */
	required?: readonly Field[];
	/** Top-level parameters that may stay empty. */
	main?: readonly Field[];
	/** Parameters under "Additional Fields". */
	optional?: readonly Field[];
	/** Offers "Wait for Final Status". */
	waitable?: boolean;
	/** The user may pick the signature scheme. */
	schemeChoice?: boolean;
	/** Rules across fields (thrown as GatewayInputError). */
	refine?: (values: CheckedValues) => void;
	/** Runs after the checks and before the request is sent; may complete the request from the gateway. */
	prepare?: (ctx: IExecuteFunctions, step: PrepareStep) => Promise<void>;
	/**
	 * A read over many records (a report, a reconciliation, balances) instead of request fields: it runs
	 * once for all input items and outputs items of its own, from parameters of its own.
	 */
	readMany?: ReadMany;
}

/**
 * What a read over many records declares; the pipeline runs it once for the run (pipeline/read.ts):
 * refuses an expression that differs between items, reads the query, sends, masks the items and marks
 * its errors (nothing it does moves money).
 */
export interface ReadMany<Query = unknown> {
	parameters: INodeProperties[];
	/** What it reads once for the whole run, in words ("one report"), for the error when an item's expression differs. */
	readsOnce: string;
	/** Parameters read for every input item, not once for the run (Reconcile's record fields). */
	perItem?: readonly string[];
	/** Reads and checks what to ask for, with the first item's parameters (a GatewayInputError names the field); sends nothing. */
	query(ctx: IExecuteFunctions): Query;
	/** Sends and reads the answers: its output items, each paired with the input item it answers. */
	send(ctx: IExecuteFunctions, query: Query): Promise<INodeExecutionData[]>;
	/** Masks one of its items, knowing which fields hold card data; without it every text is masked as free text. */
	mask?(json: IDataObject, secrets: readonly string[]): IDataObject;
}

/** An operation placed in the node. */
export interface OperationSpec extends OperationDefinition {
	resource: string;
	/** The parameter value of the Operation menu (saved workflows hold it: never changes). */
	operation: string;
	/** Name used in messages, e.g. "Payment → Sale". */
	label: string;
}

/** What `prepare` may read and complete. */
export interface PrepareStep {
	itemIndex: number;
	label: string;
	login: string;
	request: BuiltRequest;
	endpoint?: EndpointChoice;
	timeoutMs: number;
}

/** An operation placed in the node, with its parameters: the router hands its spec to the pipeline (pipeline/run.ts). */
export interface Operation {
	spec: OperationSpec;
	description: INodeProperties[];
}

export interface BuiltRequest {
	fields: Array<readonly [string, string]>;
	values: Record<string, string>;
	clientOrderId?: string;
	generatedOrderId?: boolean;
}
