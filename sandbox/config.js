// @ts-check
'use strict';
// Loads the sandbox configuration (merchants, endpoints, keys, options) and indexes it.
const fs = require('node:fs');
const path = require('node:path');
const { parseAmount } = require('./amount');
const { reportSettings } = require('./engine/report-layouts');
const { requireTimeZone } = require('./zones');

const DEFAULT_CONFIG_FILE = path.join(__dirname, 'config', 'default.json');

/** @typedef {import('./engine/types').Options} Options */
/** @typedef {import('./engine/types').Merchant} Merchant */
/** @typedef {import('./engine/types').Endpoint} Endpoint */
/** @typedef {import('./engine/types').EndpointGroup} EndpointGroup */
/** @typedef {Record<string, any>} RawConfig  the configuration file's JSON, or the object given instead */

/** @type {Options} */
const DEFAULT_OPTIONS = {
	port: 8899,
	host: '127.0.0.1',
	basePath: '/paynet',
	latencyMs: 0,
	verifier: 'forge',
	pollsBeforeFinal: 0,
	quiet: false,
	strictAccept: false,
	// How capture's control is read when the request has no amount: 'interface' (the order's amount
	// and currency are signed) or 'if-sent' (the public docs: they add nothing).
	captureControl: 'interface',
	oauthFailureStatus: 403,
	oauthReplay: { enabled: false, windowSec: 300 },
	callbackRetry: { attempts: 5, delaysMs: [1000, 2000, 4000, 8000, 16000] },
	callbackTimeoutMs: 5000,
	callbackMethod: 'GET',
	requestLogSize: 1000,
	descriptor: 'CARD GATEWAY SANDBOX',
	faults: [],
	// get-balance: on for every merchant (true), for none (false), or for the listed logins; the
	// gateway's support enables it per merchant.
	balanceEnabled: true,
	// v4/status: the vendor's emulator's short untyped reply, or the full status reply api_v4_status lists ('documented').
	v4StatusReply: 'emulator',
	// The gateway server's zone and the user's: the platform's report layouts show times in them.
	serverTimeZone: 'Europe/Moscow',
	userTimeZone: 'UTC',
	// Every merchant's transaction report, unless its own `report` says otherwise.
	report: { layout: 'sandbox', contentType: 'text/csv' },
};

/**
 * @param {RawConfig | string | null | undefined} config
 * @param {string | undefined} configDir
 * @returns {{ raw: RawConfig, baseDir: string }}
 */
function readConfigSource(config, configDir) {
	if (config == null) config = DEFAULT_CONFIG_FILE;
	if (typeof config === 'string') {
		const file = path.resolve(config);
		return { raw: JSON.parse(fs.readFileSync(file, 'utf8')), baseDir: path.dirname(file) };
	}
	// Object configs resolve key files against configDir, else the shipped config folder,
	// so a copy of default.json works unchanged.
	return { raw: config, baseDir: configDir || path.dirname(DEFAULT_CONFIG_FILE) };
}

/**
 * @param {RawConfig} m   a merchant of the configuration
 * @param {string} baseDir
 */
function collectPems(m, baseDir) {
	/** @type {{ source: string, pem: string }[]} */
	const pems = [];
	/** @type {string[]} */
	const files = [].concat(m.publicKeyFile || [], m.publicKeyFiles || []);
	for (const f of files) pems.push({ source: f, pem: fs.readFileSync(path.resolve(baseDir, f), 'utf8') });
	/** @type {string[]} */
	const inline = [].concat(m.publicKeyPem || [], m.publicKeyPems || []);
	for (const p of inline) pems.push({ source: 'inline', pem: p });
	return pems;
}

/**
 * Build the runtime configuration. `options` (startSandbox arguments) override the file's options.
 * verifier: the backend from verifier.js, used to pre-parse the public keys once.
 * @param {RawConfig} options
 * @param {(name: string) => import('./engine/types').Verifier} createVerifier
 * @returns {import('./engine/types').Config}
 */
function loadConfig(options, createVerifier) {
	const { raw, baseDir } = readConfigSource(options.config, options.configDir);
	/** @type {Record<string, any>} */
	const mergedOptions = { ...DEFAULT_OPTIONS };
	for (const src of [raw, options]) {
		for (const key of Object.keys(DEFAULT_OPTIONS)) if (src[key] !== undefined) mergedOptions[key] = src[key];
	}
	const merged = /** @type {Options} */ (mergedOptions);
	merged.callbackRetry = { ...DEFAULT_OPTIONS.callbackRetry, ...(merged.callbackRetry || {}) };
	merged.oauthReplay = { ...DEFAULT_OPTIONS.oauthReplay, ...(merged.oauthReplay || {}) };
	if (!['interface', 'if-sent'].includes(merged.captureControl))
		throw new Error(`captureControl must be 'interface' or 'if-sent', got '${merged.captureControl}'`);
	if (!['emulator', 'documented'].includes(merged.v4StatusReply))
		throw new Error(`v4StatusReply must be 'emulator' or 'documented', got '${merged.v4StatusReply}'`);
	merged.latencyMs = Number(merged.latencyMs) || 0;
	merged.pollsBeforeFinal = Number(merged.pollsBeforeFinal) || 0;
	merged.basePath = merged.basePath ? '/' + String(merged.basePath).replace(/^\/+|\/+$/g, '') : '';
	if (merged.basePath === '/') merged.basePath = '';
	requireTimeZone(merged.serverTimeZone, 'serverTimeZone');
	requireTimeZone(merged.userTimeZone, 'userTimeZone');
	merged.report = reportSettings(merged.report, DEFAULT_OPTIONS.report);
	const verifier = createVerifier(merged.verifier);

	/** @type {Merchant[]} */
	const merchants = [];
	/** @type {Map<string, Merchant>} */
	const byLogin = new Map();
	/** @type {Map<string, Endpoint>} */
	const endpoints = new Map();
	/** @type {Map<string, EndpointGroup>} */
	const groups = new Map();
	for (const m of raw.merchants || []) {
		if (!m.login || !m.controlKey) throw new Error('Each merchant needs login and controlKey');
		if (byLogin.has(m.login)) throw new Error(`Duplicate merchant login ${m.login}`);
		/** @type {Merchant} */
		const merchant = {
			login: String(m.login),
			controlKey: String(m.controlKey),
			descriptor: m.descriptor || merged.descriptor,
			publicKeys: collectPems(m, baseDir).map((k) => verifier.loadPublicKey(k.pem)),
			publicKeySources: collectPems(m, baseDir).map((k) => k.source),
			endpoints: [],
			groups: [],
			openingBalances: openingBalances(m),
			report: merchantReport(m, merged.report),
		};
		for (const e of m.endpoints || []) {
			const id = String(e.id);
			if (endpoints.has(id)) throw new Error(`Duplicate endpoint ${id}`);
			const ep = { id, currency: String(e.currency).toUpperCase(), merchant };
			endpoints.set(id, ep);
			merchant.endpoints.push(ep);
		}
		for (const g of m.endpointGroups || []) {
			const id = String(g.id);
			if (groups.has(id)) throw new Error(`Duplicate endpoint group ${id}`);
			const members = (g.endpoints || []).map((/** @type {string | number} */ e) => {
				const ep = endpoints.get(String(e));
				if (!ep || ep.merchant !== merchant) throw new Error(`Group ${id}: endpoint ${e} is not ${m.login}'s`);
				return ep;
			});
			const group = { id, endpoints: members, merchant };
			groups.set(id, group);
			merchant.groups.push(group);
		}
		merchants.push(merchant);
		byLogin.set(merchant.login, merchant);
	}
	return {
		options: merged,
		verifier,
		merchants,
		byLogin,
		endpoints,
		groups,
		managers: loadManagers(raw, byLogin),
		baseDir,
	};
}

/**
 * A merchant's opening balances ({ "USD": "10000.00" }) in minor units, by currency.
 * @param {RawConfig} m
 * @returns {Map<string, number>}
 */
function openingBalances(m) {
	/** @type {Map<string, number>} */
	const balances = new Map();
	for (const [currency, amount] of Object.entries(m.openingBalances || {})) {
		const parsed = parseAmount(String(amount), currency);
		if (parsed.error) throw new Error(`Merchant ${m.login}: opening balance ${currency}: ${parsed.error}`);
		balances.set(currency.toUpperCase(), /** @type {number} */ (parsed.minor));
	}
	return balances;
}

/**
 * A merchant's report settings: its own `report` over the configuration's.
 * @param {RawConfig} m
 * @param {import('./engine/types').ReportSettings} defaults
 */
function merchantReport(m, defaults) {
	try {
		return reportSettings(m.report, defaults);
	} catch (/** @type {any} */ e) {
		throw new Error(`Merchant ${m.login}: ${e.message}`);
	}
}

/**
 * Managers (get-balance by manager login): a login, a control key and the merchants they oversee.
 * @param {RawConfig} raw
 * @param {Map<string, Merchant>} byLogin
 * @returns {Map<string, import('./engine/types').Manager>}
 */
function loadManagers(raw, byLogin) {
	/** @type {Map<string, import('./engine/types').Manager>} */
	const managers = new Map();
	for (const m of raw.managers || []) {
		if (!m.login || !m.controlKey) throw new Error('Each manager needs login and controlKey');
		if (managers.has(m.login) || byLogin.has(m.login)) throw new Error(`Duplicate login ${m.login}`);
		const overseen = (m.merchants || []).map((/** @type {string} */ login) => {
			const merchant = byLogin.get(login);
			if (!merchant) throw new Error(`Manager ${m.login}: unknown merchant ${login}`);
			return merchant;
		});
		// Shaped like a merchant so that the OAuth check signs it the same way (HMAC-SHA1, control key).
		managers.set(m.login, {
			login: String(m.login),
			controlKey: String(m.controlKey),
			descriptor: '',
			publicKeys: [],
			publicKeySources: [],
			endpoints: [],
			groups: [],
			openingBalances: new Map(),
			report: DEFAULT_OPTIONS.report,
			merchants: overseen,
		});
	}
	return managers;
}

module.exports = { loadConfig, DEFAULT_OPTIONS, DEFAULT_CONFIG_FILE };
