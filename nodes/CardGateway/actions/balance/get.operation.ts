import {
	NodeApiError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
	type JsonObject,
} from 'n8n-workflow';

import { currencyDigits } from '../../../shared/protocol/amount';
import {
	availableForPayouts,
	formatSignedUnits,
	notABalanceReply,
	parseRequiredAmount,
	readBalances,
	sufficiency,
	type GatewayBalance,
	type RequiredAmount,
} from '../../../shared/protocol/balance';
import { OPERATIONS, operationUrl } from '../../../shared/protocol/catalogue';
import { GatewayInputError } from '../../../shared/protocol/errors';
import { classifyReply, JSON_MEDIA_TYPE, parseGatewayReply, type GatewayFailure } from '../../../shared/protocol/reply';
import { gatewayError } from '../../../shared/transport';
import { readAnswer } from '../common/send/read';
import { defineOperation, defineRead } from '../common/define/operation';

type BalanceOf = 'endpoint' | 'merchant' | 'manager';

const READS_ONLY = 'Reading the balance moves no money.';

const parameters: INodeProperties[] = [
	{
		displayName: 'Balance Of',
		name: 'balanceOf',
		type: 'options',
		options: [
			{ name: 'Endpoint', value: 'endpoint', description: "The balance of an endpoint's currency" },
			{ name: 'Merchant', value: 'merchant', description: 'Every balance of a merchant (by login)' },
			{ name: 'Manager', value: 'manager', description: "Every balance of a manager's merchants (by login)" },
		],
		default: 'endpoint',
	},
	{
		displayName: 'Endpoint ID',
		name: 'endpointId',
		type: 'string',
		default: '',
		displayOptions: { show: { balanceOf: ['endpoint'] } },
		description: "The endpoint whose balance to read; empty means the credential's",
	},
	{
		displayName: 'Login',
		name: 'login',
		type: 'string',
		default: '',
		displayOptions: { show: { balanceOf: ['merchant', 'manager'] } },
		description: "The merchant's or manager's login; empty means the credential's login",
	},
	{
		displayName: 'Balance Name',
		name: 'balanceName',
		type: 'string',
		default: '',
		description: 'Only the balance of this name; empty means every balance the choice above has',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Required Amount',
				name: 'requiredAmount',
				type: 'string',
				default: '',
				placeholder:
					"e.g. 1250.00 USD, or {{ $('Payouts').all().map(i => i.json.amount + ' ' + i.json.currency).join(' + ') }}",
				description:
					'What a payout run needs, each amount with its currency: "500.00 USD", or several joined with "+" (added exactly, one currency). Each balance then says whether what it has available in that currency covers it: "sufficient" (true, false, or null when the reply does not show what is available), "shortfall", "sufficientReason".',
			},
			{
				displayName: 'Timeout (Seconds)',
				name: 'timeoutSeconds',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 30,
				description: 'How long to wait for the gateway',
			},
		],
	},
];

/** What Balance → Get asks for, read once for the run. */
interface BalanceQuery {
	balanceOf: BalanceOf;
	endpointId: string;
	login: string;
	balanceName: string;
	required?: RequiredAmount;
	timeoutMs: number;
}

// Read-only: what the gateway holds for the merchant, enabled per merchant by the gateway's support.
export default defineOperation({
	gateway: 'getBalance',
	menu: {
		name: 'Get',
		description: 'Get the balance: amount, live amount, holds, rolling reserve, pending payouts',
		action: 'Get the balance',
	},
	// Once for the run, from the first item's parameters (docs/node.md): not once per input item.
	readMany: defineRead({
		parameters,
		readsOnce: 'the balance once',
		query: balanceQuery,
		async send(ctx, query) {
			const balances = await balancesOf(ctx, query);
			return balances.map((balance) => ({ json: withAvailability(balance, query.required), pairedItem: { item: 0 } }));
		},
	}),
});

/** The run's balance query, checked; bad input is refused naming the field. */
function balanceQuery(ctx: IExecuteFunctions): BalanceQuery {
	const balanceOf = ctx.getNodeParameter('balanceOf', 0, 'endpoint') as BalanceOf;
	const balanceName = String(ctx.getNodeParameter('balanceName', 0, '')).trim();
	const options = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	const requiredText = String(options.requiredAmount ?? '').trim();
	const required = requiredText ? parseRequiredAmount(requiredText) : undefined;
	const endpointId = balanceOf === 'endpoint' ? String(ctx.getNodeParameter('endpointId', 0, '')).trim() : '';
	if (endpointId && !/^\d{1,19}$/.test(endpointId))
		throw new GatewayInputError(
			'Endpoint ID',
			`"Endpoint ID" must be a whole number, got "${endpointId.slice(0, 20)}"`,
		);
	const login = balanceOf === 'endpoint' ? '' : String(ctx.getNodeParameter('login', 0, '')).trim();
	const timeoutMs = Math.round(Number(options.timeoutSeconds ?? 30) * 1000);
	return { balanceOf, endpointId, login, balanceName, required, timeoutMs };
}

/** The gateway's balances; a refusal, or an answer that is not a balance, is the read's error. */
async function balancesOf(ctx: IExecuteFunctions, query: BalanceQuery): Promise<GatewayBalance[]> {
	const { balanceOf, endpointId, login } = query;
	const answer = await readAnswer(
		ctx,
		{
			method: 'POST',
			url: (baseUrl, credentials) =>
				balanceUrl(
					baseUrl,
					balanceOf,
					endpointId || String(credentials.endpointId ?? '').trim(),
					login || credentials.login,
				),
			fields: [['balance-name', query.balanceName]],
			accept: `text/html, ${JSON_MEDIA_TYPE}`,
			timeoutMs: query.timeoutMs,
			itemIndex: 0,
		},
		'The balance',
		READS_ONLY,
	);
	const text = typeof answer.body === 'string' ? answer.body : '';
	const reply = parseGatewayReply(answer.statusCode, answer.contentType, text);
	const failure = classifyReply(reply);
	if (failure) throw refusal(ctx, failure, 0);
	const notBalance = notABalanceReply(reply, text);
	if (notBalance) {
		throw gatewayError(
			ctx,
			{
				kind: 'transport',
				httpStatus: reply.httpStatus,
				message: `The gateway's answer is not a balance: ${notBalance}`,
			},
			0,
			'',
			READS_ONLY,
		);
	}
	return readBalances(text);
}

function balanceUrl(baseUrl: string, balanceOf: BalanceOf, endpointId: string, login: string): string {
	const operation = OPERATIONS.getBalance;
	if (balanceOf === 'endpoint') return operationUrl(baseUrl, operation, { endpointId });
	return `${operationUrl(baseUrl, operation, { endpointId: balanceOf })}/${encodeURIComponent(login)}`;
}

/** The balance with what is available for payouts (and from which fields, and why) and, when asked, whether it covers the run. */
function withAvailability(balance: GatewayBalance, required: RequiredAmount | undefined): IDataObject {
	const availability = availableForPayouts(balance);
	const digits = currencyDigits(balance.currency?.trim().toUpperCase());
	const output: IDataObject = {
		...balance,
		availableForPayouts: availability.units === undefined ? null : formatSignedUnits(availability.units, digits),
		availableFrom: availability.from,
		availableReason: availability.reason,
	};
	if (!required) return output;
	return {
		...output,
		requiredAmount: formatSignedUnits(required.units, currencyDigits(required.currency)),
		requiredCurrency: required.currency,
		...sufficiency(balance, availability, required),
	};
}

/** The gateway's refusal; one that says the feature is off for this account reads as such. */
function refusal(ctx: IExecuteFunctions, failure: GatewayFailure, itemIndex: number): NodeApiError {
	if (!/not enabled|enable this feature|disabled/i.test(failure.message))
		return gatewayError(ctx, failure, itemIndex, '', READS_ONLY);
	const code = failure.code ? ` (code ${failure.code})` : '';
	return new NodeApiError(ctx.getNode(), { message: failure.message, code: failure.code ?? null } as JsonObject, {
		message: `Balance requests are not enabled for this account${code}`,
		description: `The gateway's support enables "get balance" per merchant: ask them to enable it for this merchant login. The gateway said: ${failure.message}. ${READS_ONLY}`,
		httpCode: String(failure.httpStatus),
		itemIndex,
	});
}
