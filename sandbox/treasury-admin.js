// @ts-check
'use strict';
// Sandbox-only admin routes of the treasury features: seed synthetic transaction-report rows (a
// large report without creating its orders through the API), adjust a merchant's balance and set
// what of it is held (short-term hold, rolling reserve) and which fields its reply leaves out.
// Nothing here exists on a real gateway.
const reply = require('./reply');
const { adjustBalance, balancesOf, setBalanceTerms } = require('./engine/balance');
const { GatewayError } = require('./engine/errors');
const { seedReportRows } = require('./engine/report');

/**
 * Answer a treasury admin route; null when the path is not one of them.
 * @param {import('./server').SandboxServer} srv
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} path
 * @returns {Promise<number | null>}   the HTTP status it answered with
 */
async function handleTreasuryAdmin(srv, req, res, path) {
	const gateway = srv.gateway;
	if (path === '/sandbox/report-rows' && req.method === 'GET')
		return reply.sendJson(res, 200, { batches: gateway.store.syntheticReportBatches });
	if (path === '/sandbox/balances' && req.method === 'GET') {
		const balances = gateway.config.merchants.flatMap((merchant) =>
			balancesOf(gateway, merchant).map((balance) => ({
				merchant: merchant.login,
				currency: balance.currency,
				amountMinor: balance.amountMinor,
				bufferHoldMinor: balance.bufferHoldMinor,
				shortTermHoldMinor: balance.shortTermHoldMinor,
				rollingReserveMinor: balance.rollingReserveMinor,
				omit: balance.omit,
			})),
		);
		return reply.sendJson(res, 200, { balances });
	}
	/** @type {Record<string, (body: any) => unknown>} */
	const posts = {
		'/sandbox/report-rows': (body) => seedReportRows(gateway, body),
		'/sandbox/balance-adjustments': (body) => adjustBalance(gateway, body),
		'/sandbox/balance-terms': (body) => setBalanceTerms(gateway, body),
	};
	const post = posts[path];
	if (!post || req.method !== 'POST') return null;
	try {
		const text = (await srv.readBody(req)).toString('utf8').trim();
		return reply.sendJson(res, 201, post(text ? JSON.parse(text) : {}));
	} catch (/** @type {any} */ e) {
		if (e instanceof GatewayError || e instanceof SyntaxError) return reply.sendJson(res, 400, { error: e.message });
		throw e;
	}
}

module.exports = { handleTreasuryAdmin };
