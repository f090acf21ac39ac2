'use strict';
// Workflows the real-n8n benchmark imports. Each starts with a Webhook (POST, answers with the last
// node); in the bulk ones its body is { orders: [...] } and Split Out turns the list into items. Bulk settings
// (concurrency, batch size, batch interval) are constants, one workflow per setting: an expression
// would be evaluated for every item (n8n 2.41 evaluates expressions in an isolate, ~0.5 ms each).
const { MERCHANT } = require('./common');
const { TYPED_OPS } = require('./typed-ops');

const CREDENTIAL = { id: 'cgBench00000000001', name: 'Card Gateway bench' };
// For the stock Webhook node with Header Auth: n8n's own cost of a webhook that reads a credential.
const HEADER_AUTH = {
	id: 'cgBench00000000002',
	name: 'Header Auth bench',
	header: 'X-Bench-Auth',
	value: 'bench-header-secret',
};
// For the stock Webhook node with JWT Auth: n8n's own node verifying a signature (HS256) with a credential's secret on every call.
const JWT_AUTH = {
	id: 'cgBench00000000003',
	name: 'JWT Auth bench',
	secret: 'bench-jwt-secret-0123456789abcdef',
	algorithm: 'HS256',
};
const TRIGGER_WEBHOOK_ID = 'b0b0b0b0-0001-4000-8000-0000000000aa';
const OPS = {
	getStatus: { resource: 'transaction', operation: 'getStatus', command: 'status' },
	return: { resource: 'payment', operation: 'return', command: 'return' },
};

let counter = 0;
const uuid = () => `b0b0b0b0-${String(++counter).padStart(4, '0')}-4000-8000-000000000000`;

function node(name, type, typeVersion, parameters, extra = {}) {
	return { id: uuid(), name, type, typeVersion, position: [counter * 200, 0], parameters, ...extra };
}

function chain(nodes) {
	const connections = {};
	for (let i = 0; i < nodes.length - 1; i++)
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	return connections;
}

/** Counts the items by `field` (split by `splitBy` when given), so the answer stays small whatever the item count. */
function countNode(field, splitBy = '') {
	return node('Count', 'n8n-nodes-base.summarize', 1.1, {
		fieldsToSummarize: { values: [{ aggregation: 'count', field }] },
		fieldsToSplitBy: splitBy,
		options: {},
	});
}

/** Webhook (POST, answers with the last node's items) → the middle nodes → Count. */
function webhookWorkflow(id, urlPath, middle, count) {
	const nodes = [
		node(
			'Webhook',
			'n8n-nodes-base.webhook',
			2,
			{ httpMethod: 'POST', path: urlPath, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
			{ webhookId: uuid() },
		),
		...middle,
		count,
	];
	return {
		id,
		name: id,
		active: false,
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'none', saveManualExecutions: false },
		nodes,
		connections: chain(nodes),
	};
}

/** A bulk job: the webhook body's { orders: [...] } split into items, the outcomes counted by reply type. */
function bulkWorkflow(id, urlPath, middle) {
	const splitOut = node('Split Out', 'n8n-nodes-base.splitOut', 1, {
		fieldToSplitOut: 'body.orders',
		include: 'noOtherFields',
		options: {},
	});
	return webhookWorkflow(id, urlPath, [splitOut, ...middle], countNode('type', 'type'));
}

/** Our node: signs and sends every item itself, `concurrency` at a time. */
function oursWorkflow(op, concurrency) {
	const { resource, operation } = OPS[op];
	return bulkWorkflow(`benchOurs_${op}_${concurrency}`, `bench-ours-${op}-${concurrency}`, [
		node(
			'Card Gateway',
			'n8n-nodes-card-gateway.cardGateway',
			1,
			{
				resource,
				operation,
				merchantOrderId: '={{ $json.cid }}',
				gatewayOrderId: '={{ $json.oid }}',
				options: { concurrency },
			},
			{ credentials: { cardGatewayApi: CREDENTIAL } },
		),
	]);
}

/**
 * The route without our package: a Code node computes `control`, the HTTP Request node sends.
 * `batch` = { batchSize, batchInterval } (n8n's Batching option), or null for the default (no batching).
 */
function httpWorkflow(op, sandboxUrl, batch) {
	const tag = batch ? `${batch.batchSize}x${batch.batchInterval}` : 'default';
	const { command } = OPS[op];
	const code = [
		"const crypto = require('crypto');",
		`const login = ${JSON.stringify(MERCHANT.login)};`,
		`const key = ${JSON.stringify(MERCHANT.controlKey)};`,
		'return $input.all().map((item) => ({ json: { ...item.json, login,',
		"  control: crypto.createHash('sha1').update(login + item.json.cid + item.json.oid + key).digest('hex') } }));",
	].join('\n');
	return bulkWorkflow(`benchHttp_${op}_${tag}`, `bench-http-${op}-${tag}`, [
		node('Sign', 'n8n-nodes-base.code', 2, { mode: 'runOnceForAllItems', language: 'javaScript', jsCode: code }),
		node('HTTP Request', 'n8n-nodes-base.httpRequest', 4.2, {
			method: 'POST',
			url: `${sandboxUrl}/paynet/api/v2/${command}/${MERCHANT.endpointId}`,
			sendHeaders: true,
			headerParameters: { parameters: [{ name: 'Accept', value: 'application/vnd.pay+json' }] },
			sendBody: true,
			contentType: 'form-urlencoded',
			bodyParameters: {
				parameters: [
					{ name: 'login', value: '={{ $json.login }}' },
					{ name: 'client_orderid', value: '={{ $json.cid }}' },
					{ name: 'orderid', value: '={{ $json.oid }}' },
					{ name: 'control', value: '={{ $json.control }}' },
				],
			},
			options: {
				...(batch ? { batching: { batch } } : {}),
				response: { response: { responseFormat: 'json' } },
			},
		}),
	]);
}

/** Our node sending a money operation of issue 34 with the Merchant Order ID typed (`{{ $json.cid }}`), `concurrency` at a time. */
function oursTypedWorkflow(op, concurrency) {
	return bulkWorkflow(`benchOursTyped_${op}_${concurrency}`, `bench-ours-${op}-${concurrency}`, [
		node(
			'Card Gateway',
			'n8n-nodes-card-gateway.cardGateway',
			1,
			{ ...TYPED_OPS[op].parameters, merchantOrderId: '={{ $json.cid }}', options: { concurrency } },
			{ credentials: { cardGatewayApi: CREDENTIAL } },
		),
	]);
}

/**
 * The same requests without our package (no re-run protection): a Code node builds each item's form
 * body and signs it (a sale's SHA-1 `control`, a payout's OAuth header), HTTP Request sends it (form body as a string),
 * `batch.batchSize` items every `batch.batchInterval` ms (its rate-equivalent of that many in flight).
 */
function httpTypedWorkflow(op, sandboxUrl, batch) {
	const { gateway, fields } = TYPED_OPS[op];
	const url = `${sandboxUrl}/paynet/api/v2/${gateway}/${MERCHANT.endpointId}`;
	const sign =
		gateway === 'sale'
			? [
					"const crypto = require('crypto');",
					`const key = ${JSON.stringify(MERCHANT.controlKey)};`,
					'const enc = (s) => encodeURIComponent(String(s));',
					// endpoint + client_orderid + amount in hundredths + email + control key
					"const sign = (f) => ({ control: crypto.createHash('sha1').update(" +
						`${JSON.stringify(MERCHANT.endpointId)} + f.client_orderid + f.amount.replace('.', '') + f.email + key).digest('hex') });`,
				]
			: [...OAUTH_CODE, `const sign = (f) => ({ authorization: oauthHeader('POST', ${JSON.stringify(url)}, f) });`];
	const code = [
		...sign,
		`const fixed = ${JSON.stringify({ ...fields(''), client_orderid: undefined })};`,
		'return $input.all().map((item) => {',
		'  const f = { ...fixed, client_orderid: item.json.cid };',
		'  const { control, authorization } = sign(f);',
		'  const form = control ? { ...f, control } : f;',
		"  const body = Object.entries(form).map(([k, v]) => enc(k) + '=' + enc(v)).join('&');",
		"  return { json: { body, authorization: authorization ?? '' } };",
		'});',
	].join('\n');
	const tag = `${batch.batchSize}x${batch.batchInterval}`;
	return bulkWorkflow(`benchHttpTyped_${op}_${tag}`, `bench-http-${op}-${tag}`, [
		node('Sign', 'n8n-nodes-base.code', 2, { mode: 'runOnceForAllItems', language: 'javaScript', jsCode: code }),
		node('HTTP Request', 'n8n-nodes-base.httpRequest', 4.2, {
			method: 'POST',
			url,
			sendHeaders: true,
			headerParameters: {
				parameters: [
					{ name: 'Accept', value: 'application/vnd.pay+json' },
					...(gateway === 'sale' ? [] : [{ name: 'Authorization', value: '={{ $json.authorization }}' }]),
				],
			},
			sendBody: true,
			contentType: 'form-urlencoded',
			specifyBody: 'string',
			body: '={{ $json.body }}',
			options: { batching: { batch }, response: { response: { responseFormat: 'json' } } },
		}),
	]);
}

/** The report period both report workflows read (the day the benchmark seeds synthetic rows on). */
const REPORT_PERIOD = { from: '2026-03-02 00:00:00', to: '2026-03-02 23:59:59' };

/** Transaction → Get Many, Return All, over REPORT_PERIOD; the rows counted by status. */
function reportOursWorkflow() {
	return webhookWorkflow(
		'benchReportOurs',
		'bench-report-ours',
		[
			node(
				'Card Gateway',
				'n8n-nodes-card-gateway.cardGateway',
				1,
				{
					resource: 'transaction',
					operation: 'getMany',
					createdFrom: REPORT_PERIOD.from,
					createdTo: REPORT_PERIOD.to,
					returnAll: true,
					// the sandbox layout's times are UTC
					options: { timeZone: 'UTC' },
				},
				{ credentials: { cardGatewayApi: CREDENTIAL } },
			),
		],
		countNode('status'),
	);
}

/**
 * Code-node lines a user writes to sign with OAuth 1.0a HMAC-SHA1 (key = control key + "&"): `enc`
 * (RFC 3986) and `oauthHeader(method, url, params)`, the Authorization header over the params.
 */
const OAUTH_CODE = [
	"const crypto = require('crypto');",
	`const login = ${JSON.stringify(MERCHANT.login)};`,
	`const key = ${JSON.stringify(MERCHANT.controlKey)};`,
	"const enc = (s) => encodeURIComponent(String(s)).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());",
	'function oauthHeader(method, url, params) {',
	'  const oauth = {',
	'    oauth_consumer_key: login,',
	"    oauth_nonce: crypto.randomBytes(16).toString('hex'),",
	"    oauth_signature_method: 'HMAC-SHA1',",
	'    oauth_timestamp: String(Math.floor(Date.now() / 1000)),',
	"    oauth_version: '1.0',",
	'  };',
	'  const pairs = [...Object.entries(params), ...Object.entries(oauth)]',
	'    .map(([k, v]) => enc(k) + "=" + enc(v))',
	'    .sort();',
	"  const base = [method, enc(url), enc(pairs.join('&'))].join('&');",
	"  const signature = crypto.createHmac('sha1', key + '&').update(base).digest('base64');",
	"  return 'OAuth ' + Object.entries({ ...oauth, oauth_signature: signature })",
	`    .map(([k, v]) => k + '="' + enc(v) + '"').join(', ');`,
	'}',
];

/**
 * What a user builds instead: a Code node signs the report's GET (OAuth 1.0a HMAC-SHA1 over the
 * query, key = control key + "&"), HTTP Request fetches it as a file, Extract From File parses the CSV.
 */
function reportHttpWorkflow(sandboxUrl) {
	const code = [
		...OAUTH_CODE,
		`const url = ${JSON.stringify(`${sandboxUrl}/paynet-ui/services/transaction-report`)};`,
		`const query = { createdFromDate: ${JSON.stringify(REPORT_PERIOD.from)}, createdToDate: ${JSON.stringify(REPORT_PERIOD.to)} };`,
		"const search = Object.entries(query).map(([k, v]) => enc(k) + '=' + enc(v)).join('&');",
		"return [{ json: { url: url + '?' + search, authorization: oauthHeader('GET', url, query) } }];",
	].join('\n');
	return webhookWorkflow(
		'benchReportHttp',
		'bench-report-http',
		[
			node('Sign', 'n8n-nodes-base.code', 2, { mode: 'runOnceForAllItems', language: 'javaScript', jsCode: code }),
			node('HTTP Request', 'n8n-nodes-base.httpRequest', 4.2, {
				method: 'GET',
				url: '={{ $json.url }}',
				sendHeaders: true,
				headerParameters: { parameters: [{ name: 'Authorization', value: '={{ $json.authorization }}' }] },
				options: { response: { response: { responseFormat: 'file' } } },
			}),
			node('Extract From File', 'n8n-nodes-base.extractFromFile', 1.1, {
				operation: 'csv',
				binaryPropertyName: 'data',
				options: {},
			}),
		],
		countNode('status'),
	);
}

/** Our trigger (signature check, no confirmation query), n8n's stock Webhook node, and that node with Header Auth and with JWT Auth. */
function triggerWorkflows() {
	const ours = node(
		'Card Gateway Trigger',
		'n8n-nodes-card-gateway.cardGatewayTrigger',
		2,
		{ confirm: 'off' },
		{ webhookId: TRIGGER_WEBHOOK_ID, credentials: { cardGatewayApi: CREDENTIAL } },
	);
	const stock = node(
		'Webhook',
		'n8n-nodes-base.webhook',
		2,
		{ httpMethod: 'GET', path: 'bench-stock-hook', responseMode: 'onReceived', options: {} },
		{ webhookId: uuid() },
	);
	const stockAuth = node(
		'Webhook',
		'n8n-nodes-base.webhook',
		2,
		{
			httpMethod: 'GET',
			path: 'bench-stock-auth-hook',
			authentication: 'headerAuth',
			responseMode: 'onReceived',
			options: {},
		},
		{ webhookId: uuid(), credentials: { httpHeaderAuth: { id: HEADER_AUTH.id, name: HEADER_AUTH.name } } },
	);
	const stockJwt = node(
		'Webhook',
		'n8n-nodes-base.webhook',
		2,
		{
			httpMethod: 'GET',
			path: 'bench-stock-jwt-hook',
			authentication: 'jwtAuth',
			responseMode: 'onReceived',
			options: {},
		},
		{ webhookId: uuid(), credentials: { jwtAuth: { id: JWT_AUTH.id, name: JWT_AUTH.name } } },
	);
	const settings = { executionOrder: 'v1', saveDataSuccessExecution: 'none', saveManualExecutions: false };
	return [
		{ id: 'benchTrigOurs', name: 'benchTrigOurs', active: false, settings, nodes: [ours], connections: {} },
		{ id: 'benchTrigStock', name: 'benchTrigStock', active: false, settings, nodes: [stock], connections: {} },
		{
			id: 'benchTrigStockAuth',
			name: 'benchTrigStockAuth',
			active: false,
			settings,
			nodes: [stockAuth],
			connections: {},
		},
		{ id: 'benchTrigStockJwt', name: 'benchTrigStockJwt', active: false, settings, nodes: [stockJwt], connections: {} },
	];
}

module.exports = {
	CREDENTIAL,
	HEADER_AUTH,
	JWT_AUTH,
	TRIGGER_WEBHOOK_ID,
	OPS,
	REPORT_PERIOD,
	oursWorkflow,
	httpWorkflow,
	oursTypedWorkflow,
	httpTypedWorkflow,
	reportOursWorkflow,
	reportHttpWorkflow,
	triggerWorkflows,
};
