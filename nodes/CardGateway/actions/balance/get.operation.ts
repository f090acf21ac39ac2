import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
	type JsonObject,
} from 'n8n-workflow';

import { withMoneyEffect } from '../../../shared/moneyEffect';
import { currencyDigits } from '../../../shared/protocol/amount';
import { formatSignedUnits, readBalances, signedUnits, type GatewayBalance } from '../../../shared/protocol/balance';
import { OPERATIONS, operationUrl } from '../../../shared/protocol/catalogue';
import { GatewayInputError } from '../../../shared/protocol/errors';
import { classifyReply, JSON_MEDIA_TYPE, parseGatewayReply, type GatewayFailure } from '../../../shared/protocol/reply';
import { gatewayError, inputError, signedRequest, type SignedOutcome } from '../../../shared/transport';
import { defineOperation } from '../common/operation';

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
				placeholder: "e.g. 1250.00, or {{ $('Payouts').all().map(i => i.json.amount).join(' + ') }}",
				description:
					'What a payout run needs: a decimal, or several joined with "+" (added exactly). Each balance then says whether what is available (live amount less pending payouts) covers it: "sufficient", "shortfall".',
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

// Read-only: what the gateway holds for the merchant, enabled per merchant by the gateway's support.
export default defineOperation({
	gateway: 'getBalance',
	menu: {
		name: 'Get',
		description: 'Get the balance: amount, live amount, holds, rolling reserve, pending payouts',
		action: 'Get the balance',
	},
	readMany: {
		parameters,
		async run(ctx) {
			const output = [];
			for (let itemIndex = 0; itemIndex < ctx.getInputData().length; itemIndex++) {
				for (const json of await balancesOfItem(ctx, itemIndex)) output.push({ json, pairedItem: { item: itemIndex } });
			}
			return output;
		},
	},
});

async function balancesOfItem(ctx: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const balanceOf = ctx.getNodeParameter('balanceOf', itemIndex, 'endpoint') as BalanceOf;
	const balanceName = String(ctx.getNodeParameter('balanceName', itemIndex, '')).trim();
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const required = requiredAmount(ctx, options, itemIndex);
	const endpointId = balanceOf === 'endpoint' ? String(ctx.getNodeParameter('endpointId', itemIndex, '')).trim() : '';
	if (endpointId && !/^\d{1,19}$/.test(endpointId)) {
		throw notSent(
			inputError(
				ctx,
				new GatewayInputError('Endpoint ID', `"Endpoint ID" must be a whole number, got "${endpointId.slice(0, 20)}"`),
				itemIndex,
			),
		);
	}
	const login = balanceOf === 'endpoint' ? '' : String(ctx.getNodeParameter('login', itemIndex, '')).trim();
	const outcome = await signedRequest(ctx, {
		method: 'POST',
		url: (baseUrl, credentials) =>
			balanceUrl(
				baseUrl,
				balanceOf,
				endpointId || String(credentials.endpointId ?? '').trim(),
				login || credentials.login,
			),
		fields: [['balance-name', balanceName]],
		accept: `text/html, ${JSON_MEDIA_TYPE}`,
		timeoutMs: Math.round(Number(options.timeoutSeconds ?? 30) * 1000),
		itemIndex,
	}).catch((error: Error) => {
		throw notSent(error);
	});
	const text = await answerText(ctx, outcome, itemIndex);
	const balances = readBalances(text);
	if (balances.length === 0) throw notSent(refusal(ctx, outcome, text, itemIndex));
	return balances.map((balance) => withAvailability(ctx, balance, required, itemIndex));
}

function balanceUrl(baseUrl: string, balanceOf: BalanceOf, endpointId: string, login: string): string {
	const operation = OPERATIONS.getBalance;
	if (balanceOf === 'endpoint') return operationUrl(baseUrl, operation, { endpointId });
	return `${operationUrl(baseUrl, operation, { endpointId: balanceOf })}/${encodeURIComponent(login)}`;
}

/** Required Amount: one decimal, or several joined with "+" (a run's amounts), added exactly. */
function requiredAmount(ctx: IExecuteFunctions, options: IDataObject, itemIndex: number): bigint | undefined {
	const text = String(options.requiredAmount ?? '').trim();
	if (!text) return undefined;
	try {
		return text.split('+').reduce((sum, term) => {
			const units = signedUnits(term, 'Required Amount');
			if (units < 0n) throw new GatewayInputError('Required Amount', '"Required Amount" must not be negative');
			return sum + units;
		}, 0n);
	} catch (error) {
		throw notSent(inputError(ctx, error as GatewayInputError, itemIndex));
	}
}

/** The balance with what is available for payouts (live amount less pending payouts) and, when asked, whether it covers the run. */
function withAvailability(
	ctx: IExecuteFunctions,
	balance: GatewayBalance,
	required: bigint | undefined,
	itemIndex: number,
): IDataObject {
	const digits = currencyDigits(balance.currency);
	const output: IDataObject = { ...balance };
	const live = balance.onlineLiveAmount ?? balance.amount;
	if (live === undefined) return output;
	let available: bigint;
	try {
		available =
			signedUnits(live, 'online-balance-live-amount') -
			signedUnits(balance.pendingPayouts ?? '0', 'amount-buffer-hold');
	} catch (error) {
		throw notSent(
			new NodeOperationError(
				ctx.getNode(),
				`The gateway's balance reply has an amount that is not a decimal: ${(error as Error).message}`,
				{ itemIndex },
			),
		);
	}
	output.availableForPayouts = formatSignedUnits(available, digits);
	if (required !== undefined) {
		output.requiredAmount = formatSignedUnits(required, digits);
		output.sufficient = available >= required;
		output.shortfall = formatSignedUnits(available >= required ? 0n : required - available, digits);
	}
	return output;
}

async function answerText(ctx: IExecuteFunctions, outcome: SignedOutcome, itemIndex: number): Promise<string> {
	if (outcome.kind === 'lost') {
		throw notSent(
			new NodeOperationError(ctx.getNode(), `The balance could not be read: ${outcome.what}`, {
				itemIndex,
				description: `${outcome.message}. ${READS_ONLY}`,
			}),
		);
	}
	return typeof outcome.body === 'string' ? outcome.body : '';
}

/** The gateway's refusal; one that says the feature is off for this account reads as such. */
function refusal(ctx: IExecuteFunctions, outcome: SignedOutcome, text: string, itemIndex: number): NodeApiError {
	const statusCode = outcome.kind === 'answer' ? outcome.statusCode : 0;
	const contentType = outcome.kind === 'answer' ? outcome.contentType : '';
	const failure: GatewayFailure = classifyReply(parseGatewayReply(statusCode, contentType, text)) ?? {
		kind: 'transport',
		httpStatus: statusCode,
		message: `The gateway's answer (HTTP ${statusCode}) holds no balance`,
	};
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

function notSent<E extends Error>(error: E): E {
	return withMoneyEffect(error, 'notSent');
}
