import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { OPERATIONS, type AuthScheme, type OperationId } from '../../../../shared/protocol/catalogue';
import { GatewayInputError } from '../../../../shared/protocol/errors';
import { maskText } from '../../../../shared/protocol/masking';
import { comparableName } from '../../../../shared/protocol/names';
import { MERCHANT_ORDER_ID_SPELLINGS, replyRecord, type GatewayReply } from '../../../../shared/protocol/reply';
import { withMoneyEffect } from '../../../../shared/moneyEffect';
import {
	buildGatewayRequest,
	merchantCredentials,
	withInputErrors,
	type EndpointChoice,
	type GatewayCall,
} from '../../../../shared/transport';

import { alreadyDoneOutcome, alreadyExistedOutcome } from '../outcome/messages';
import { orderCheckFailed, repeatRefused, repeatUnreadable } from './refusals';
import { deliver, learnStatus, matchingOrder, waitForFinalStatus } from '../send/delivery';
import type { DeliveryPlan, StatusKnowledge } from '../core/delivery';
import { alreadyClaimedOutput, claimKey, settlingClaim } from '../guard/claims';
import { factsOf, moneyFactsOf, movesMoney, ordersOnce } from '../core/facts';
import { guardAiAgent, guardRetryOnFail } from '../guard/guards';
import { generatedIdsMayRepeat, generatedOrderId } from '../read/orderIds';
import { expireMonth, expireYear, sectionHeading, type Field } from '../core/fields';
import { hasLimits, reserveSpending, runSettings, type RunSettings } from '../read/runSettings';
import { extraFields, itemOptions, optionsCollection, RETRY_ON_FAIL_WARNING, type RunOptions } from '../read/options';
import { moneyOutcome } from '../outcome/moneyOutcome';
import { oneAtATime } from '../guard/oneAtATime';
import { planOfRun, planRecord, rehearsePlanned, runBound } from './planRun';
import { nodeParameter, readAhead } from '../read/parameters';
import { summarise } from '../outcome/output';
import { asText, checkExpiry, isEmpty, label, wireValue } from '../read/values';

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
	 * A read-only operation over many records (a report, a reconciliation, balances): it runs once for
	 * all input items and outputs items of its own, from parameters of its own (no request fields).
	 */
	readMany?: ReadMany;
}

export interface ReadMany {
	parameters: INodeProperties[];
	run(ctx: IExecuteFunctions): Promise<INodeExecutionData[]>;
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

export interface Operation {
	spec: OperationSpec;
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject>;
}

/** An operation of the node, as the router runs it. */
export type OperationModule = Pick<Operation, 'spec' | 'description' | 'execute'>;

/** Typed identity: what an operation file exports. */
export function defineOperation(definition: OperationDefinition): OperationDefinition {
	return definition;
}

/**
 * A resource of the node from its operations, one entry each (key = the Operation parameter value):
 * the Operation menu (A–Z, as n8n lists it), every operation's parameters and its execution.
 */
export function defineResource<const D extends Record<string, OperationDefinition>>(
	resource: string,
	label: string,
	defaultOperation: keyof D & string,
	definitions: D,
): { operations: { [K in keyof D]: Operation }; description: INodeProperties[] } {
	const operations = Object.fromEntries(
		Object.entries(definitions).map(([operation, definition]) => [
			operation,
			buildOperation({ ...definition, resource, operation, label: `${label} → ${definition.menu.name}` }),
		]),
	) as { [K in keyof D]: Operation };
	const menu: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: Object.entries(definitions)
			.map(([value, { menu: entry }]) => ({
				name: entry.name,
				value,
				description: entry.description,
				action: entry.action,
			}))
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultOperation,
	};
	return {
		operations,
		description: [menu, ...Object.values(operations).flatMap((operation) => operation.description)],
	};
}

export { moneyFactsOf, movesMoney };

/** Builds one operation's parameters (scoped to it) and its per-item execution. */
function buildOperation(spec: OperationSpec): Operation {
	const show = { show: { resource: [spec.resource], operation: [spec.operation] } };
	if (spec.readMany) {
		const { readMany } = spec;
		return {
			spec,
			description: updateDisplayOptions(show, readMany.parameters),
			// The router runs readMany for the whole run; one item's execution is the same run's output.
			async execute(this: IExecuteFunctions, itemIndex: number) {
				return (await readMany.run(this))[itemIndex]?.json ?? {};
			},
		};
	}
	const gateway = OPERATIONS[spec.gateway];
	const money = movesMoney(spec);
	const properties: INodeProperties[] = [];
	if (money) {
		properties.push({ displayName: RETRY_ON_FAIL_WARNING, name: 'retryNotice', type: 'notice', default: '' });
	}
	for (const field of spec.required ?? []) {
		properties.push(...sectionHeading(field), { ...field.property, required: field.merchantOrderId !== 'new' });
	}
	for (const field of spec.main ?? []) properties.push(...sectionHeading(field), field.property);
	const optional = [...(spec.optional ?? [])].sort((a, b) =>
		a.property.displayName.localeCompare(b.property.displayName),
	);
	if (optional.length) {
		properties.push({
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: optional.map((field) => field.property),
		});
	}
	properties.push(
		extraFields,
		optionsCollection({
			movesMoney: money,
			waitable: !!spec.waitable,
			schemeChoice: !!spec.schemeChoice,
			defaultScheme: gateway.auth,
		}),
	);
	const description = updateDisplayOptions(show, properties);
	return {
		spec,
		description,
		async execute(this: IExecuteFunctions, itemIndex: number) {
			return await executeOperation(this, spec, itemIndex);
		},
	};
}

async function executeOperation(ctx: IExecuteFunctions, spec: OperationSpec, itemIndex: number): Promise<IDataObject> {
	if (!movesMoney(spec)) return await runItem(ctx, spec, await prepareItem(ctx, spec, itemIndex));
	// A dry run, and a real run bound to an approved plan, plan the whole run before any item is sent.
	const runPlan = await planOfRun(ctx, spec, itemIndex);
	if (runPlan?.dryRun) return await rehearsePlanned(ctx, spec, runPlan, itemIndex);
	if (runPlan)
		return await runBound(ctx, spec, runPlan, itemIndex, async (prepared) => await runItem(ctx, spec, prepared));
	return {
		...(await runItem(ctx, spec, await prepareItem(ctx, spec, itemIndex))),
		...planRecord(undefined, itemIndex),
	};
}

/** One item, ready to send: its options, run settings, checked request and how it is sent. */
export interface PreparedItem {
	options: RunOptions;
	run: RunSettings;
	request: BuiltRequest;
	call: GatewayCall;
	plan: DeliveryPlan;
}

/** Reads and checks one item and builds its call; sends nothing (at most an operation's own status query). */
export async function prepareItem(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	itemIndex: number,
): Promise<PreparedItem> {
	const facts = moneyFactsOf(spec);
	const { options, auth, login, request, run } = await beforeSending(ctx, spec, itemIndex).catch((error: Error) => {
		throw withMoneyEffect(error, 'notSent');
	});
	const call: GatewayCall = {
		operation: spec.gateway,
		fields: request.fields,
		endpoint: endpointChoice(options),
		auth: spec.schemeChoice ? auth : undefined,
		timeoutMs: Math.round(options.timeoutSeconds * 1000),
		itemIndex,
	};
	const plan: DeliveryPlan = {
		itemIndex,
		label: spec.label,
		login,
		clientOrderId: request.clientOrderId,
		orderId: request.values.gatewayOrderId,
		operation: spec.gateway,
		target: request.clientOrderId ? undefined : targetOf(spec, request.values),
		requested:
			ordersOnce(spec) && !facts.followUp && request.values.amount ? requestedMoney(request.values) : undefined,
	};
	return { options, run, request, call, plan };
}

/**
 * Sends one prepared item for real (a dry run never gets here) and reports what it did to the money.
 * Items that move money on the same order take turns (oneAtATime): a second execution acting on it
 * asks the gateway only once the first is done, and finds what the first did.
 */
async function runItem(ctx: IExecuteFunctions, spec: OperationSpec, prepared: PreparedItem): Promise<IDataObject> {
	const { plan } = prepared;
	const turn = ordersOnce(spec) && plan.clientOrderId ? `${plan.login}\u0000${plan.clientOrderId}` : undefined;
	return await oneAtATime(turn, async () => await sendItem(ctx, spec, prepared));
}

async function sendItem(ctx: IExecuteFunctions, spec: OperationSpec, prepared: PreparedItem): Promise<IDataObject> {
	const facts = moneyFactsOf(spec);
	const { options, run, request, call, plan } = prepared;
	const { itemIndex } = plan;
	// Limits are checked before anything is sent, the order-ID check included, unless the amount is the order's.
	const limited = facts.moves && !run.dryRun && hasLimits(run);
	const amountFromOrder = facts.followUp && !request.values.amount;
	let unreserve =
		limited && !amountFromOrder ? reserveSpending(ctx, spec.label, plan, request.values, undefined) : undefined;
	// A step after the count: what it throws before anything left gives the count back.
	const counted = <T>(step: () => T | Promise<T>): Promise<T> =>
		Promise.resolve()
			.then(step)
			.catch((error: Error) => {
				unreserve?.(error);
				throw error;
			});
	const before = await counted(async () => await orderBefore(ctx, spec, request, run, call, plan));
	if (limited && amountFromOrder) unreserve = reserveSpending(ctx, spec.label, plan, request.values, before);
	const existing = await counted(() => (before && !facts.followUp ? existingOrder(ctx, plan, before) : undefined));
	if (existing) {
		unreserve?.();
		return summarise(
			existing,
			request,
			{ alreadyExisted: true },
			options.includeRawReply,
			alreadyExistedOutcome(facts, plan, existing),
		);
	}
	const done = await counted(() => (facts.followUp ? followUpDone(ctx, prepared, before) : undefined));
	if (done) {
		unreserve?.();
		return done;
	}
	const claim = options.actOncePerKey
		? await counted(async () => await claimKey(ctx, itemIndex, options.actOncePerKey))
		: undefined;
	if (claim?.kind === 'taken') {
		unreserve?.();
		return alreadyClaimedOutput(claim);
	}
	const send = async () => {
		let delivered = await counted(async () => await deliver(ctx, call, plan));
		if (spec.waitable && options.waitForFinalStatus) {
			delivered = await waitForFinalStatus(ctx, call, plan, delivered, options);
		}
		// The order as the gateway reports it now; what this operation moved is moneyOutcome's.
		return summarise(
			delivered.orderAfter ?? delivered.reply,
			request,
			delivered.notes,
			options.includeRawReply,
			moneyOutcome(spec.gateway, delivered, request.values, before),
		);
	};
	return claim ? await settlingClaim(claim, send) : await send();
}

/**
 * A follow-up run again, read from the order's status before it is sent (facts.ts, RERUN_RULES): when
 * the order shows this step made already, the item says so and nothing is sent; a step that may repeat
 * on one order (a partial capture or return) is refused, nothing sent, once something of its kind is on
 * the order, unless Act Once per Key names this step (the claim then fences it).
 */
function followUpDone(
	ctx: IExecuteFunctions,
	{ options, request, plan }: PreparedItem,
	before: StatusKnowledge | undefined,
): IDataObject | undefined {
	const { rerun, money } = factsOf(plan);
	if (!rerun) return undefined;
	const repeats = !!rerun.repeatsAfter && !!request.values.amount && !options.actOncePerKey;
	if (before?.kind !== 'found') {
		// Whether this step is on the order already cannot be read: a repeatable step is not sent.
		if (repeats && before?.kind === 'unknown')
			throw withMoneyEffect(repeatUnreadable(ctx, plan, before.reason), 'notSent');
		return undefined;
	}
	const order = replyRecord(before.reply);
	const done = rerun.done?.(order, request.values);
	if (done)
		return summarise(
			before.reply,
			request,
			{},
			options.includeRawReply,
			alreadyDoneOutcome(money, plan, before.reply, done),
		);
	const latest = order.transactionType;
	if (repeats && (!latest || rerun.repeatsAfter!.includes(latest)))
		throw withMoneyEffect(repeatRefused(ctx, plan, money, before.reply), 'notSent');
	return undefined;
}

/**
 * What the gateway knows about the order before anything that moves money is sent (one status
 * query), when something depends on it:
 * - a dry run describes the order it targets;
 * - a new order under an ID that may have been used already (typed by the user, or generated again
 *   by a retried execution) is not sent when the gateway has it: a repeated order ID must never
 *   move money twice, whatever the gateway does with it;
 * - a follow-up is not sent when the order shows it made already, or when it may repeat on one order
 *   and something of its kind is there (followUpDone);
 * - a full capture, return or void under spending limits counts what is on the order;
 * - a void or 3-D Secure completion is confirmed afterwards only against the order as it was before.
 */
export async function orderBefore(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	request: BuiltRequest,
	run: RunSettings,
	call: GatewayCall,
	plan: DeliveryPlan,
): Promise<StatusKnowledge | undefined> {
	const facts = moneyFactsOf(spec);
	const { statusQuery } = OPERATIONS[spec.gateway];
	if (!ordersOnce(spec) || !plan.clientOrderId || !statusQuery) return undefined;
	const reusedId = !request.generatedOrderId || generatedIdsMayRepeat(ctx);
	if (!facts.followUp && !reusedId) return undefined;
	// What a real send would refuse (an unreadable key, a bad endpoint) is refused before the status query too.
	await buildGatewayRequest(ctx, call);
	// A follow-up is asked about with the status query that shows what its re-run rule reads (facts.ts).
	const asked = factsOf(plan).rerun?.statusQuery;
	const order = await learnStatus(ctx, call, asked ? { ...plan, operation: asked } : plan);
	if (facts.followUp || run.dryRun) return order;
	if (order.kind === 'unknown') throw orderCheckFailed(ctx, plan, order);
	// An answer that names no gateway order is not proof that the order exists (nor that it does not).
	if (order.kind === 'found' && !replyRecord(order.reply).orderId) {
		throw orderCheckFailed(ctx, plan, {
			kind: 'unknown',
			reason: 'the gateway answered the status query without naming an order',
		});
	}
	return order;
}

/** The order the gateway already has under this ID, or an error when it is another payment than this one. */
function existingOrder(ctx: IExecuteFunctions, plan: DeliveryPlan, before: StatusKnowledge): GatewayReply | undefined {
	if (before.kind !== 'found') return undefined;
	try {
		return matchingOrder(ctx, plan, before.reply);
	} catch (error) {
		// Only a status query was sent.
		throw withMoneyEffect(error as Error, 'notSent');
	}
}

/** Names what a request without a merchant order ID acts on (a recurring payment, a card reference). */
function targetOf(spec: OperationSpec, values: Record<string, string>): string | undefined {
	const field = spec.required?.find((candidate) => values[candidate.property.name]);
	return field ? `${field.property.displayName} "${values[field.property.name]}"` : undefined;
}

/**
 * Everything that happens before the request is sent: options, guards, reading and checking the
 * item, and the operation's own preparation (at most a harmless status query). Nothing it throws
 * moved money.
 */
async function beforeSending(ctx: IExecuteFunctions, spec: OperationSpec, itemIndex: number) {
	const gateway = OPERATIONS[spec.gateway];
	// Dry Run and the spending limits hold for the whole run: read from the first item (a tool whose
	// safety options the model fills is refused there, before any option is read).
	const run = runSettings(ctx, itemIndex);
	const options = itemOptions(ctx, itemIndex);
	// A dry run sends nothing that moves money, so an agent may rehearse without the AI switch.
	if (!run.dryRun) guardAiAgent(ctx, spec, options, itemIndex);
	guardRetryOnFail(ctx, spec, itemIndex);
	const auth = (spec.schemeChoice && options.signatureScheme ? options.signatureScheme : gateway.auth) as AuthScheme;
	const { login } = await merchantCredentials(ctx);
	const request = withInputErrors(ctx, itemIndex, () => buildRequest(ctx, spec, itemIndex, auth, login));
	await spec.prepare?.(ctx, {
		itemIndex,
		label: spec.label,
		login,
		request,
		endpoint: endpointChoice(options),
		timeoutMs: Math.round(options.timeoutSeconds * 1000),
	});
	return { options, auth, login, request, run };
}

/**
 * Reads an item's own fields ahead of it, so that n8n evaluates their expressions while another
 * request is in flight; the item's own reads then get these values. A field that fails to read is
 * left for the item's own read, which reports it for that item.
 */
export function readItemAhead(ctx: IExecuteFunctions, spec: OperationSpec, itemIndex: number): void {
	for (const field of [...(spec.required ?? []), ...(spec.main ?? [])]) {
		try {
			readAhead(ctx, field.property.name, itemIndex, '');
		} catch {
			// reported by the item's own read
		}
	}
}

/** The amount a new order asks for: the amount, or any of the amounts a rebill may try in turn. */
function requestedMoney(values: Record<string, string>): DeliveryPlan['requested'] {
	const alternatives = (values.enumerateAmounts ?? '')
		.split(',')
		.map((amount) => amount.trim())
		.filter(Boolean);
	return { amounts: [values.amount, ...alternatives], currency: values.currency };
}

function endpointChoice(options: RunOptions): EndpointChoice | undefined {
	// An endpoint set in the node replaces the credential's endpoint and group alike.
	if (options.endpointId) return { endpointId: options.endpointId, endpointGroupId: options.endpointGroupId };
	if (options.endpointGroupId) return { endpointGroupId: options.endpointGroupId };
	return undefined;
}

export interface BuiltRequest {
	fields: Array<readonly [string, string]>;
	values: Record<string, string>;
	clientOrderId?: string;
	generatedOrderId?: boolean;
}

const RESERVED_EXTRA = /^(control|oauth_.*)$/i;
const FIELD_NAME = /^[A-Za-z0-9_.[\]-]{1,64}$/;

/** Reads, checks and spells the request fields of one item. Throws GatewayInputError; sends nothing. */
function buildRequest(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	itemIndex: number,
	auth: AuthScheme,
	login: string,
): BuiltRequest {
	const gateway = OPERATIONS[spec.gateway];
	const additional = (
		spec.optional?.length ? nodeParameter(ctx, 'additionalFields', itemIndex, {}) : {}
	) as IDataObject;
	const placed = [
		...(spec.required ?? []).map((field) => ({
			field,
			required: true,
			raw: nodeParameter(ctx, field.property.name, itemIndex, ''),
		})),
		...(spec.main ?? []).map((field) => ({
			field,
			required: false,
			raw: nodeParameter(ctx, field.property.name, itemIndex, ''),
		})),
		...(spec.optional ?? []).map((field) => ({ field, required: false, raw: additional[field.property.name] })),
	];
	const currencyEntry = placed.find((entry) => entry.field.check === 'currency' && !isEmpty(entry.raw));
	const currencyCode = currencyEntry ? wireValue(currencyEntry.field, currencyEntry.raw) : undefined;

	const built: BuiltRequest = { fields: [], values: {} };
	if (auth === 'control' && gateway.control?.includes('login')) built.fields.push(['login', login]);
	for (const { field, required, raw } of placed) {
		let value = raw;
		if (isEmpty(value) && field.merchantOrderId === 'new') {
			value = generatedOrderId(ctx, itemIndex);
			built.generatedOrderId = true;
		}
		if (isEmpty(value)) {
			if (required) throw new GatewayInputError(field.property.displayName, `${label(field)} is required`);
			continue;
		}
		const checked = wireValue(field, value, currencyCode);
		// Every output masks what reads as a card number: a new order named so could never be named back.
		if (field.merchantOrderId === 'new' && maskText(checked) !== checked) {
			throw new GatewayInputError(
				field.property.displayName,
				`${label(field)} reads as a card number (digits that pass the card check digit), so every output would show it masked; add a letter prefix such as "inv-"`,
			);
		}
		const wireName = field.merchantOrderId ? gateway.orderIdField || field.wire : field.wire;
		built.values[field.property.name] = checked;
		built.fields.push([wireName, checked]);
		if (field.merchantOrderId) built.clientOrderId = checked;
	}
	const { values } = built;
	if (values.expireMonth && values.expireYear)
		checkExpiry(expireMonth, expireYear, values.expireMonth, values.expireYear);
	spec.refine?.(values);
	addExtraFields(ctx, spec, itemIndex, built);
	return built;
}

/**
 * Extra Fields add what the node has no parameter for. A name the operation has a parameter for
 * (set or not, in any spelling) is refused: it would bypass that parameter's rules, e.g. turn a
 * full return into a partial one.
 */
function addExtraFields(ctx: IExecuteFunctions, spec: OperationSpec, itemIndex: number, built: BuiltRequest): void {
	const extras = nodeParameter(ctx, 'extraFields.field', itemIndex, []) as Array<{ name?: unknown; value?: unknown }>;
	if (!extras.length) return;
	const reserved = reservedNames(spec);
	const taken = new Set<string>();
	for (const extra of extras) {
		const name = typeof extra.name === 'string' ? extra.name.trim() : '';
		if (!FIELD_NAME.test(name)) {
			throw new GatewayInputError('Extra Fields', '"Extra Fields" names must be 1–64 letters, digits, or . _ - [ ]');
		}
		if (RESERVED_EXTRA.test(name))
			throw new GatewayInputError(
				'Extra Fields',
				`"Extra Fields" may not set "${name}": the node signs requests itself`,
			);
		const reason = reserved.get(comparableName(name));
		if (reason) throw new GatewayInputError('Extra Fields', `"Extra Fields" may not set "${name}": ${reason}`);
		if (taken.has(comparableName(name)))
			throw new GatewayInputError('Extra Fields', `"Extra Fields" sets "${name}" twice`);
		const value = asText(
			{
				property: { displayName: `Extra Fields → ${name}`, name, type: 'string', default: '' },
				wire: name,
				check: 'text',
			},
			extra.value ?? '',
		);
		taken.add(comparableName(name));
		built.fields.push([name, value]);
	}
}

/** Names Extra Fields may not set, with the reason: the operation's parameters (every spelling), IDs and money fields. */
function reservedNames(spec: OperationSpec): Map<string, string> {
	const gateway = OPERATIONS[spec.gateway];
	const reserved = new Map<string, string>();
	const reserve = (name: string, reason: string) => {
		if (name && !reserved.has(comparableName(name))) reserved.set(comparableName(name), reason);
	};
	for (const field of [...(spec.required ?? []), ...(spec.main ?? []), ...(spec.optional ?? [])]) {
		const names = field.merchantOrderId
			? [field.wire, gateway.orderIdField, ...MERCHANT_ORDER_ID_SPELLINGS]
			: [field.wire];
		for (const name of names) reserve(name, `use the parameter "${field.property.displayName}" of this operation`);
	}
	reserve('login', 'the node sends the login of the credential');
	for (const name of ['orderid', 'paynet-order-id']) reserve(name, 'this operation takes no gateway order ID');
	if (movesMoney(spec)) for (const name of ['amount', 'currency']) reserve(name, 'this operation takes no amount');
	return reserved;
}
