'use strict';
// A lying network between the node and the sandbox gateway: each request is forwarded or dropped,
// and answered with the gateway's reply or with something that is not one (an HTML page, an empty
// or truncated body, a redirect to another host, 4xx/5xx with odd bodies, a reply about another
// order). The client's Host header is kept, so OAuth signatures (which cover the URL) still verify.
// A second server, "elsewhere", records every request that reaches another host.
// Independent of the node's code (plain HTTP, no import from nodes/).
const http = require('node:http');

/** What the client gets back. `pass` relays the gateway's reply unchanged. */
const ANSWERS = {
	pass: null,
	html200: {
		status: 200,
		type: 'text/html',
		body: '<html><body><h1>Service temporarily unavailable</h1><a href="/?a=b&c=d">retry</a></body></html>',
	},
	empty200: { status: 200, type: 'application/vnd.pay+json', body: '' },
	truncated200: {
		status: 200,
		type: 'application/vnd.pay+json',
		body: '{"type":"async-response","serial-number":"00000000-0000-0000-0000-0000000',
	},
	plainOk200: { status: 200, type: 'text/plain', body: 'OK' },
	jsonOther200: { status: 200, type: 'application/json', body: '{"message":"accepted","id":42}' },
	notFound404: { status: 404, type: 'text/html', body: '<html><body>404 Not Found</body></html>' },
	tooMany429: { status: 429, type: 'application/json', body: '{"error":"rate limited"}' },
	badGateway502: { status: 502, type: 'text/html', body: '<html>502 Bad Gateway</html>' },
	forbidden403: { status: 403, type: 'text/html', body: '<html>Forbidden by WAF</html>' },
	redirect307: { status: 307, redirect: true },
	redirect302: { status: 302, redirect: true },
	otherOrder: { rewrite: true },
	// A gateway that accepts the request without booking it yet: an async-response about the request's
	// own order, with a serial number of its own (not forwarded, so nothing moves).
	acceptedUnbooked: { accept: true },
	// A white label whose status replies name no transaction type and no by-request-sn.
	untypedStatus: { strip: ['transaction-type', 'by-request-sn'] },
};

function listen(server) {
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

function readBody(req) {
	return new Promise((resolve) => {
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
	});
}

let acceptedSerial = 0;

/** An async-response about the order the request names, as a gateway that queued it answers. */
function acceptedReply(requestBody) {
	const fields = new URLSearchParams(requestBody);
	acceptedSerial += 1;
	return JSON.stringify({
		type: 'async-response',
		'serial-number': `00000000-0000-0000-ffff-${String(acceptedSerial).padStart(12, '0')}`,
		'merchant-order-id': fields.get('client_orderid') ?? fields.get('client-order-id') ?? '',
		'paynet-order-id': fields.get('orderid') ?? '',
	});
}

/** Drops fields from a JSON gateway reply. */
function without(body, names) {
	const json = JSON.parse(body.toString('utf8'));
	for (const name of names) delete json[name];
	return JSON.stringify(json);
}

/** Replaces the merchant order ID of a gateway reply (JSON or legacy form) with another one. */
function aboutAnotherOrder(body) {
	const text = body.toString('utf8');
	try {
		const json = JSON.parse(text);
		json['merchant-order-id'] = `someone-else-${json['merchant-order-id'] ?? 'x'}`;
		return JSON.stringify(json);
	} catch {
		return text.replace(/merchant-order-id=([^\n&]*)/, 'merchant-order-id=someone-else-$1');
	}
}

/**
 * Starts the proxy in front of `gatewayUrl`. `plan(request)` decides per request:
 * `{ forward: boolean, answer: keyof ANSWERS, reply?: { status, type, body } | (upstream) => …, hold?: Promise }`
 * (default: forward and pass). A reply function that returns nothing relays the gateway's reply; `hold` is a
 * fence: the request goes on once it settles (the test, not a clock, decides when the gateway sees it).
 */
async function startHostileGateway(gatewayUrl, plan = () => ({ forward: true, answer: 'pass' })) {
	const elsewhere = { requests: [] };
	const elsewhereServer = http.createServer(async (req, res) => {
		elsewhere.requests.push({
			method: req.method,
			url: req.url,
			headers: req.headers,
			body: (await readBody(req)).toString('utf8'),
		});
		res.writeHead(200, { 'content-type': 'text/plain' });
		res.end('elsewhere');
	});
	const elsewherePort = await listen(elsewhereServer);
	const target = new URL(gatewayUrl);
	const log = [];
	const server = http.createServer(async (req, res) => {
		const body = await readBody(req);
		const op = (req.url.match(/\/api\/(?:v\d|3ds\/v1)\/([a-z-]+(?:\/[a-z-]+)?)\/(?:group\/)?\d+/) || [])[1] || null;
		const decision = {
			forward: true,
			answer: 'pass',
			...(plan({ method: req.method, url: req.url, op, body: body.toString('utf8') }) || {}),
		};
		log.push({ op, ...decision });
		await decision.hold;
		let upstream;
		if (decision.forward) {
			upstream = await new Promise((resolve, reject) => {
				const forwarded = http.request(
					{ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
					async (reply) => resolve({ status: reply.statusCode, headers: reply.headers, body: await readBody(reply) }),
				);
				forwarded.on('error', reject);
				forwarded.end(body);
			}).catch(() => undefined);
		}
		// A reply the test writes itself: { status, type, body }, or a function of the gateway's reply (if forwarded).
		const own = typeof decision.reply === 'function' ? decision.reply(upstream) : decision.reply;
		if (own) {
			res.writeHead(own.status, { 'content-type': own.type, 'content-length': Buffer.byteLength(own.body) });
			res.end(own.body);
			return;
		}
		const answer = ANSWERS[decision.answer];
		if (answer === undefined) throw new Error(`unknown answer ${decision.answer}`);
		if (answer && answer.accept) {
			const out = acceptedReply(body.toString('utf8'));
			res.writeHead(200, { 'content-type': 'application/vnd.pay+json', 'content-length': Buffer.byteLength(out) });
			res.end(out);
			return;
		}
		if (answer === null || answer.rewrite || answer.strip) {
			if (!upstream) {
				res.destroy();
				return;
			}
			const out = !answer
				? upstream.body
				: answer.strip
					? without(upstream.body, answer.strip)
					: aboutAnotherOrder(upstream.body);
			res.writeHead(upstream.status, {
				'content-type': upstream.headers['content-type'] || 'text/plain',
				'content-length': Buffer.byteLength(out),
			});
			res.end(out);
			return;
		}
		if (answer.redirect) {
			res.writeHead(answer.status, { location: `http://127.0.0.1:${elsewherePort}${req.url}` });
			res.end();
			return;
		}
		res.writeHead(answer.status, { 'content-type': answer.type, 'content-length': Buffer.byteLength(answer.body) });
		res.end(answer.body);
	});
	const port = await listen(server);
	return {
		url: `http://127.0.0.1:${port}`,
		elsewhere,
		log,
		async close() {
			const closing = [server, elsewhereServer].map((open) => new Promise((resolve) => open.close(resolve)));
			server.closeAllConnections();
			elsewhereServer.closeAllConnections();
			await Promise.all(closing);
		},
	};
}

/** Answers that are not a gateway reply at all (the others are gateway replies that say something else). */
const GATEWAY_SHAPED = new Set(['pass', 'acceptedUnbooked', 'untypedStatus']);

module.exports = { startHostileGateway, NON_REPLIES: Object.keys(ANSWERS).filter((name) => !GATEWAY_SHAPED.has(name)) };
