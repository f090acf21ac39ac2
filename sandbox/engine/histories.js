// @ts-check
'use strict';
// Sandbox-only (admin API): histories made in one call — an order and its follow-ups, each carried
// out by the gateway's own handler as a signed request would be (same rules, ledger and callbacks;
// only the signature is not checked) — and an order's transactions moved in time, so that a judge
// can lay orders across a report window's edges and across midnight in the server's zone.
const { commandFor } = require('../commands');
const { instantOf } = require('../zones');
const { adminView, chargeBack, findOrderForAdmin, forceFinalStatus } = require('./admin-views');
const { amountMinorOf } = require('./amounts');
const { resolveScope } = require('./auth');
const { E_FIELD, E_STATE, GatewayError, fail } = require('./errors');

/** @typedef {import('./types').GatewayState} GatewayState */
/** @typedef {import('./types').Order} Order */
/** @typedef {import('./types').Params} Params */

/** The operations a history starts with, and the command each is. */
/** @type {Record<string, string>} */
const STARTS = { sale: 'v2/sale', preauth: 'v2/preauth', payout: 'v2/payout', 'payout-check': 'v4/payout-check' };
/** The follow-ups a history's steps may take (chargeback: the admin API's). */
/** @type {Record<string, string>} */
const FOLLOW_UPS = { capture: 'v2/capture', void: 'v2/void', return: 'v2/return', pay: 'v4/payout-pay' };
const OUTCOMES = ['approved', 'declined', 'filtered', 'error', 'unknown', 'pending'];
// What holds a pending history's order `processing` until POST /sandbox/orders/{id}/finalize.
const HELD_BY_HISTORY = 'history';

/**
 * An admin time: an instant with `Z` or an offset, or a wall time read in the server's zone.
 * @param {GatewayState} state
 * @param {unknown} value
 * @param {string} what   for the message
 * @returns {number}
 */
function timeOf(state, value, what) {
	const text = String(value);
	if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,3})?(Z|[+-]\d\d:\d\d)$/.test(text)) return Date.parse(text);
	const wall = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,3}))?$/.exec(text);
	if (wall) {
		const fraction = Number((wall[7] || '0').padEnd(3, '0'));
		const wallMs = Date.UTC(+wall[1], +wall[2] - 1, +wall[3], +wall[4], +wall[5], +wall[6], fraction);
		// A date the calendar does not have (02-30) comes back different.
		if (new Date(wallMs).toISOString().slice(0, 19) === text.slice(0, 19).replace(' ', 'T'))
			return instantOf(state.options.serverTimeZone, wallMs);
	}
	return fail(
		E_FIELD,
		`${what} must be an instant (2026-03-01T20:59:59.500Z, 2026-03-01T23:59:59+03:00) or a wall time in the server's zone (2026-03-01 23:59:59.50), got '${text}'`,
	);
}

/**
 * A request of `key` to endpoint or group `id`, as the server would hand it over, but unsigned.
 * @param {string} key
 * @param {string} id
 * @param {boolean} isGroup
 * @param {Params} params
 * @param {string} baseUrl
 * @returns {import('./types').GatewayRequest}
 */
function unsignedRequest(key, id, isGroup, params, baseUrl) {
	const definition = /** @type {import('./types').CommandDefinition} */ (commandFor(key));
	return {
		definition,
		endpointOrGroupId: id,
		isGroup,
		pairs: Object.entries(params),
		queryPairs: [],
		params,
		authorization: undefined,
		oauthUrl: '',
		baseUrl,
	};
}

/**
 * The request carried out by its command's handler for the scope's merchant; a refusal throws.
 * @param {GatewayState} state
 * @param {import('./types').GatewayRequest} request
 * @param {import('./types').Scope} scope
 */
function carryOut(state, request, scope) {
	const merchant = /** @type {import('./types').Merchant} */ (scope.owner);
	/** @type {Params} */
	const params = { login: merchant.login, ...request.params };
	request.definition.handler(state, {
		definition: request.definition,
		params,
		merchant,
		scope,
		amountMinor: params.amount ? amountMinorOf(params.amount, params.currency) : null,
		request,
		serial: state.store.nextSerial(),
		baseUrl: request.baseUrl,
	});
}

/**
 * The order a history starts, with its outcome (pending: held until finalized).
 * @param {GatewayState} state
 * @param {any} history
 * @param {string} baseUrl
 * @returns {Order}
 */
function startOrder(state, history, baseUrl) {
	const operation = history.operation || 'sale';
	if (!Object.hasOwn(STARTS, operation))
		fail(E_FIELD, `operation must be one of ${Object.keys(STARTS).join(', ')}, got '${operation}'`);
	const outcome = history.outcome || 'approved';
	if (!OUTCOMES.includes(outcome)) fail(E_FIELD, `outcome must be one of ${OUTCOMES.join(', ')}, got '${outcome}'`);
	const clientOrderId = String(history.merchantOrderId || '');
	if (!clientOrderId) fail(E_FIELD, 'merchantOrderId is required');
	if (history.amount === undefined) fail(E_FIELD, 'amount is required (a decimal string)');
	const isGroup = history.group !== undefined;
	const id = String(isGroup ? history.group : (history.endpoint ?? state.config.merchants[0].endpoints[0].id));
	const scope = resolveScope(state, unsignedRequest(STARTS[operation], id, isGroup, {}, baseUrl));
	if (state.store.findByClientId(scope.key, clientOrderId))
		fail(
			E_STATE,
			`merchantOrderId ${clientOrderId} is already used on ${scope.label}: the gateway would answer with that order again`,
		);
	const endpoints = scope.group ? scope.group.endpoints : [/** @type {import('./types').Endpoint} */ (scope.endpoint)];
	const card = operation === 'sale' || operation === 'preauth' ? { cvv2: '123' } : {};
	/** @type {Params} */
	const params = {
		client_orderid: clientOrderId,
		amount: String(history.amount),
		currency: String(history.currency || endpoints[0].currency),
		order_desc: `History ${clientOrderId}`,
		email: 'payer@example.com',
		credit_card_number: '4444555566661111',
		card_printed_name: 'HISTORY PAYER',
		expire_month: '12',
		expire_year: String(new Date().getUTCFullYear() + 5),
		...card,
		...(history.params || {}),
	};
	// One status poll left: nothing settles it before the history says how it ends.
	const held = { ...state, options: { ...state.options, pollsBeforeFinal: 1 } };
	carryOut(held, unsignedRequest(STARTS[operation], id, isGroup, params, baseUrl), scope);
	const order = /** @type {Order} */ (state.store.findByClientId(scope.key, clientOrderId));
	order.pollsLeft = 0;
	if (outcome === 'pending') order.stayProcessing = HELD_BY_HISTORY;
	else forceFinalStatus(state, order.orderid, { status: outcome });
	return order;
}

/**
 * One follow-up step on the order; it must add one transaction.
 * @param {GatewayState} state
 * @param {Order} order
 * @param {any} step
 * @param {string} baseUrl
 */
function takeStep(state, order, step, baseUrl) {
	const before = order.transactions.length;
	if (step.op === 'chargeback') chargeBack(state, order.orderid, { amount: step.amount });
	else if (Object.hasOwn(FOLLOW_UPS, step.op)) {
		/** @type {Params} */
		const params = { client_orderid: order.clientOrderId, orderid: order.orderid };
		if (step.amount !== undefined) Object.assign(params, { amount: String(step.amount), currency: order.currency });
		const request = unsignedRequest(
			FOLLOW_UPS[step.op],
			order.groupId || order.endpointId,
			Boolean(order.groupId),
			params,
			baseUrl,
		);
		carryOut(state, request, resolveScope(state, request));
	} else fail(E_FIELD, `op must be one of ${[...Object.keys(FOLLOW_UPS), 'chargeback'].join(', ')}, got '${step.op}'`);
	if (order.transactions.length !== before + 1)
		fail(
			E_STATE,
			`${step.op} added no transaction to order ${order.orderid} (a repeated pay is answered, not made again)`,
		);
}

/**
 * The histories of the body (one, a list, or { histories: [...] }), made in turn; a refusal names the
 * history and step and leaves what was made before it.
 * @param {GatewayState} state
 * @param {any} body
 * @param {string} baseUrl
 */
function createHistories(state, body, baseUrl) {
	/** @type {any[]} */
	const histories = Array.isArray(body) ? body : Array.isArray(body.histories) ? body.histories : [body];
	return {
		histories: histories.map((history, h) => {
			/** @type {Order | null} */
			let order = null;
			const steps = Array.isArray(history.steps) ? history.steps : [];
			let stepIndex = -1;
			try {
				// Every time is read before anything is made.
				const at = history.at === undefined ? null : timeOf(state, history.at, 'at');
				const stepTimes = steps.map((/** @type {any} */ step, /** @type {number} */ s) =>
					step.at === undefined ? null : timeOf(state, step.at, `steps[${s}].at`),
				);
				order = startOrder(state, history, baseUrl);
				if (at !== null) moveTransaction(state, order, 0, at);
				for (stepIndex = 0; stepIndex < steps.length; stepIndex++) {
					takeStep(state, order, steps[stepIndex], baseUrl);
					const stepAt = stepTimes[stepIndex];
					if (stepAt !== null) moveTransaction(state, order, stepIndex + 1, stepAt);
				}
			} catch (/** @type {any} */ e) {
				if (!(e instanceof GatewayError)) throw e;
				const where = `history ${h}${stepIndex >= 0 && stepIndex < steps.length ? `, step ${stepIndex} (${steps[stepIndex].op})` : ''}`;
				throw new GatewayError(e.code, `${where}${order ? ` of order ${order.orderid}` : ''}: ${e.message}`);
			}
			const made = /** @type {Order} */ (order);
			return {
				orderid: made.orderid,
				client_orderid: made.clientOrderId,
				order: adminView(made),
				ledger: state.store.ledger.filter((entry) => entry.orderid === made.orderid),
			};
		}),
	};
}

/**
 * The indexes of the order's transactions that moved money, in ledger order: the order's own when its
 * command books one and it was approved, and every follow-up.
 * @param {Order} order
 */
function bookedTransactions(order) {
	return order.transactions
		.map((transaction, index) => ({ transaction, index }))
		.filter(({ transaction, index }) => index > 0 || (order.ledgerKind && transaction.status === 'approved'))
		.map(({ index }) => index);
}

/**
 * Set transaction `index`'s creation time. Its bank (final) time moves by as much; its ledger entry
 * takes the new time itself (so a period holds the same money in the ledger as in the report), and
 * the order's own transaction sets the order's creation time.
 * @param {GatewayState} state
 * @param {Order} order
 * @param {number} index
 * @param {number} ms
 */
function moveTransaction(state, order, index, ms) {
	const transaction = order.transactions[index];
	if (!transaction) fail(E_FIELD, `Order ${order.orderid} has no transaction ${index}`);
	const entries = state.store.ledger.filter((entry) => entry.orderid === order.orderid);
	const booked = bookedTransactions(order);
	if (entries.length !== booked.length)
		fail(E_STATE, `Order ${order.orderid}: ${entries.length} ledger entries for ${booked.length} booked transactions`);
	const at = new Date(ms).toISOString();
	const delta = ms - Date.parse(transaction.at);
	if (transaction.finalAt) transaction.finalAt = new Date(Date.parse(transaction.finalAt) + delta).toISOString();
	const entry = entries[booked.indexOf(index)];
	if (entry) entry.at = at;
	if (order.paid && index > 0 && transaction.type === 'payout') order.paid.at = at;
	transaction.at = at;
	if (index === 0) order.createdAt = at;
}

/**
 * The admin API's POST /sandbox/orders/{orderid}/times: { at: [time or null, …] } by transaction index.
 * @param {GatewayState} state
 * @param {string} orderid
 * @param {any} body
 */
function retimeOrder(state, orderid, body) {
	const order = findOrderForAdmin(state, orderid);
	const times =
		body && Array.isArray(body.at) ? body.at : fail(E_FIELD, 'at must be a list of times, one per transaction');
	if (times.length > order.transactions.length)
		fail(E_FIELD, `Order ${order.orderid} has ${order.transactions.length} transactions, got ${times.length} times`);
	const instants = times.map((/** @type {unknown} */ time, /** @type {number} */ i) =>
		time === null || time === undefined ? null : timeOf(state, time, `at[${i}]`),
	);
	instants.forEach((/** @type {number | null} */ ms, /** @type {number} */ i) => {
		if (ms !== null) moveTransaction(state, order, i, ms);
	});
	return order;
}

module.exports = { createHistories, retimeOrder };
