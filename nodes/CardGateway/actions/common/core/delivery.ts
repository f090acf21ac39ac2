// What the pipeline knows about one request on its way: what it is sent for, what came back, and what
// the gateway said about its order.
import type { OperationId } from '../../../../shared/protocol/catalogue';
import type { GatewayFailure, GatewayReply } from '../../../../shared/protocol/reply';

/** One request on its way: what it is sent for and about which order (messages and status queries read it). */
export interface Delivery {
	itemIndex: number;
	/** Operation name for messages, e.g. "Payment → Sale". */
	label: string;
	login: string;
	/** The merchant order ID sent (the key for status queries). */
	clientOrderId?: string;
	/** The gateway order ID sent (follow-ups). */
	orderId?: string;
	/** The operation sent: what it does to money and which status query finds it are read from the catalogue. */
	operation: OperationId;
	/** What the request acts on, for messages when it names no order (a recurring payment). */
	target?: string;
	/** What a new order was asked to move: a reply about a different amount is an older order. */
	requested?: { amounts: readonly string[]; currency?: string };
}

export interface Delivered {
	reply: GatewayReply;
	notes: DeliveryNotes;
	/** The serial number the gateway gave this request: a status reply naming it is about this very transaction. */
	serial?: string;
	/** The reply is the gateway's answer to this request itself, not a status of the order. */
	direct: boolean;
	/** The order's status once this request's own transaction was approved (what is left on it). */
	orderAfter?: GatewayReply;
}

export type StatusKnowledge =
	| { kind: 'found'; reply: GatewayReply }
	| { kind: 'notFound'; reply: GatewayReply }
	/** `refusal`: the gateway itself refused the status query (its message and code). */
	| { kind: 'unknown'; reason: string; refusal?: GatewayFailure };

/** Facts about how the reply was obtained, added to the output. */
export interface DeliveryNotes {
	recoveredFromLostReply?: boolean;
	resentAfterLostReply?: boolean;
	waitTimedOut?: boolean;
	/** The gateway had the order before this run: nothing was sent. */
	alreadyExisted?: boolean;
}
