'use strict';
// Server callbacks (gateway → merchant): HTTP GET with the outcome in the query string (the
// documented way; `callbackMethod: 'POST'` sends the same fields as a form body instead), retried on
// a compressed schedule until the merchant answers 200. Every attempt is recorded for the admin API.
const { Agent, request } = require('undici');

class Callbacks {
	/**
	 * opts: { retry: { attempts, delaysMs }, timeoutMs, faults, method: 'GET' | 'POST' }
	 */
	constructor(opts) {
		this.retry = opts.retry;
		this.method = opts.method === 'POST' ? 'POST' : 'GET';
		this.timeoutMs = opts.timeoutMs;
		this.faults = opts.faults;
		this.agent = new Agent({ connections: 16, headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs });
		this.timers = new Set();
		this.closed = false;
		this.seq = 0;
		this.deliveries = [];
		this.held = new Map(); // orderid → held delivery (out-of-order fault)
	}

	reset() {
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		this.deliveries = [];
		this.held.clear();
	}

	/**
	 * Queue a callback for each URL.
	 * cb: { orderid, clientOrderId, type, urls: [url], params (without control), sign(params, wrong) → control, definition }
	 */
	enqueue(cb) {
		const urls = [...new Set(cb.urls.filter(Boolean))];
		if (!urls.length) return [];
		const definition = cb.definition || { name: cb.type };
		const duplicate = this.faults.take('duplicate-callback', definition);
		const wrong = this.faults.take('wrong-control-callback', definition);
		const outOfOrder = this.faults.take('out-of-order-callbacks', definition);
		const params = { ...cb.params, control: cb.sign(cb.params, Boolean(wrong)) };
		const created = [];
		for (const url of urls) {
			const copies = duplicate ? 2 : 1;
			for (let i = 0; i < copies; i++) {
				const d = this.create(cb, url, params, { duplicate: i > 0, wrongControl: Boolean(wrong) });
				created.push(d);
			}
		}
		const previouslyHeld = this.held.get(cb.orderid);
		if (outOfOrder) {
			// Hold these until a later callback of the same order went out (or a safety timeout).
			for (const d of created) d.state = 'held';
			const release = () => {
				if (this.held.get(cb.orderid) !== entry) return;
				this.held.delete(cb.orderid);
				for (const d of created) this.start(d);
			};
			const entry = { release, deliveries: created };
			this.held.set(cb.orderid, entry);
			this.later(release, outOfOrder.latencyMs || 2000);
		} else {
			const first = created.map((d) => this.start(d));
			if (previouslyHeld) {
				// The later callback's first attempt goes out before the held, earlier one.
				Promise.allSettled(first).then(() => previouslyHeld.release());
			}
		}
		return created;
	}

	create(cb, url, params, flags) {
		const d = {
			id: String(++this.seq),
			orderid: cb.orderid,
			client_orderid: cb.clientOrderId,
			type: cb.type,
			status: params.status,
			url,
			params,
			state: 'pending',
			delivered: false,
			attempts: [],
			createdAt: new Date().toISOString(),
			...flags,
		};
		this.deliveries.push(d);
		return d;
	}

	/** Re-send a recorded delivery as a new delivery (same parameters). */
	replay(id) {
		const orig = this.deliveries.find((d) => d.id === String(id));
		if (!orig) return null;
		const d = this.create({ orderid: orig.orderid, clientOrderId: orig.client_orderid, type: orig.type }, orig.url, orig.params, {
			replayOf: orig.id,
		});
		this.start(d);
		return d;
	}

	later(fn, ms) {
		if (this.closed) return;
		const t = setTimeout(() => {
			this.timers.delete(t);
			fn();
		}, ms);
		this.timers.add(t);
	}

	/** Runs the attempts; resolves after the first attempt (so ordering faults can chain on it). */
	start(d) {
		d.state = 'pending';
		return new Promise((resolveFirst) => {
			const attempt = async (n) => {
				if (this.closed) return resolveFirst();
				const url = new URL(d.url);
				const form = new URLSearchParams(d.params);
				const init = { method: this.method, dispatcher: this.agent };
				if (this.method === 'POST') {
					init.body = form.toString();
					init.headers = { 'content-type': 'application/x-www-form-urlencoded' };
				} else {
					for (const [k, v] of form) url.searchParams.append(k, v);
				}
				const started = Date.now();
				const rec = { n, at: new Date(started).toISOString(), method: this.method };
				try {
					const r = await request(url, init);
					await r.body.dump();
					rec.httpStatus = r.statusCode;
				} catch (e) {
					rec.error = e.code || e.message;
				}
				rec.ms = Date.now() - started;
				d.attempts.push(rec);
				if (rec.httpStatus === 200) {
					d.delivered = true;
					d.state = 'delivered';
				} else if (n >= this.retry.attempts) {
					d.state = 'failed';
				} else {
					const delays = this.retry.delaysMs || [];
					const wait = delays.length ? delays[Math.min(n - 1, delays.length - 1)] : 1000;
					this.later(() => attempt(n + 1), wait);
				}
				if (n === 1) resolveFirst();
			};
			setImmediate(() => attempt(1));
		});
	}

	list() {
		return this.deliveries;
	}

	async close() {
		this.closed = true;
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		await this.agent.destroy().catch(() => {});
	}
}

module.exports = { Callbacks };
