// The request of one item, read from its parameters, checked and spelled for the wire; sends nothing.
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { OPERATIONS, type AuthScheme } from '../../../../shared/protocol/catalogue';
import { GatewayInputError } from '../../../../shared/protocol/errors';
import { maskText } from '../../../../shared/protocol/masking';
import { comparableName } from '../../../../shared/protocol/names';
import { MERCHANT_ORDER_ID_SPELLINGS } from '../../../../shared/protocol/reply';
import type { EndpointChoice } from '../../../../shared/transport';

import { movesMoney } from '../core/facts';
import { expireMonth, expireYear } from '../core/fields';
import type { BuiltRequest, OperationSpec } from '../core/operation';
import type { RunOptions } from './options';
import { generatedOrderId } from './orderIds';
import { nodeParameter, readAhead } from './parameters';
import { asText, checkExpiry, isEmpty, label, wireValue } from './values';

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

export function endpointChoice(options: RunOptions): EndpointChoice | undefined {
	// An endpoint set in the node replaces the credential's endpoint and group alike.
	if (options.endpointId) return { endpointId: options.endpointId, endpointGroupId: options.endpointGroupId };
	if (options.endpointGroupId) return { endpointGroupId: options.endpointGroupId };
	return undefined;
}

const RESERVED_EXTRA = /^(control|oauth_.*)$/i;

const FIELD_NAME = /^[A-Za-z0-9_.[\]-]{1,64}$/;

/** Reads, checks and spells the request fields of one item. Throws GatewayInputError; sends nothing. */
export function buildRequest(
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

/** The amounts a request asks for, read once: its amount, then any a rebill may try in turn (Enumerate Amounts). */
export function amountsAsked(values: Record<string, string>): string[] {
	const alternatives = (values.enumerateAmounts ?? '')
		.split(',')
		.map((amount) => amount.trim())
		.filter(Boolean);
	return [values.amount, ...alternatives];
}
