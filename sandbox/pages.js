// @ts-check
'use strict';
// HTML for the browser-facing parts: the fake ACS (3-D Secure) page, the hosted payment form and the
// auto-submitting forms that send the payer on. Plain forms, so an HTTP client can complete them too.

/** @param {unknown} value */
function esc(value) {
	return String(value == null ? '' : value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * @param {string} title
 * @param {string} body   html
 */
function page(title, body) {
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font-family:sans-serif;max-width:32em;margin:3em auto}label{display:block;margin:.6em 0}
input{font-size:1em;padding:.3em}.err{color:#b00}.note{color:#666;font-size:.9em}</style></head>
<body><p class="note">Card gateway SANDBOX — test only, no real money.</p>
${body}
</body></html>`;
}

/**
 * A form that submits itself on load (with a button for clients without JavaScript).
 * @param {string} title
 * @param {string} action
 * @param {string} method
 * @param {Record<string, unknown>} fields
 */
function autoSubmit(title, action, method, fields) {
	const inputs = Object.entries(fields || {})
		.filter(([, v]) => v !== undefined && v !== null)
		.map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
		.join('\n');
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head>
<body onload="document.forms[0].submit()">
<form id="sandbox-redirect" method="${esc(method)}" action="${esc(action)}">
${inputs}
<noscript><button type="submit">Continue</button></noscript>
</form></body></html>`;
}

/** @typedef {import('./engine/types').Order & { amountText: string }} PageOrder */

/**
 * @param {PageOrder} order
 * @param {string} action
 * @param {string} [error]
 */
function acsPage(order, action, error) {
	return page(
		'3-D Secure',
		`<h1>3-D Secure check</h1>
<p>Order ${esc(order.orderid)} — ${esc(order.amountText)} ${esc(order.currency)} — card ${esc(order.card ? order.card.masked : '')}</p>
${error ? `<p class="err">${esc(error)}</p>` : ''}
<form method="post" action="${esc(action)}">
<label>Password <input type="password" name="password" autofocus></label>
<p class="note">The sandbox accepts the password <code>hint</code>; anything else declines.</p>
<button type="submit">Submit</button>
</form>`,
	);
}

/**
 * @param {PageOrder} order
 * @param {string} action
 * @param {string} [error]
 */
function formPage(order, action, error) {
	const payout = order.kind === 'payout';
	return page(
		payout ? 'Payout' : 'Payment',
		`<h1>${payout ? 'Payout to card' : 'Card payment'}</h1>
<p>Order ${esc(order.clientOrderId)} — ${esc(order.amountText)} ${esc(order.currency)}</p>
${error ? `<p class="err">${esc(error)}</p>` : ''}
<form method="post" action="${esc(action)}">
<label>Card number <input name="credit_card_number" autocomplete="cc-number" inputmode="numeric"></label>
<label>Expiry month <input name="expire_month" size="2" placeholder="MM"></label>
<label>Expiry year <input name="expire_year" size="4" placeholder="YYYY"></label>
${payout ? '' : '<label>CVV2 <input name="cvv2" size="4" inputmode="numeric"></label>'}
<label>Name on card <input name="card_printed_name" autocomplete="cc-name"></label>
<p class="note">Test CVV: 123 approved, 321 3-D Secure (password hint), 116 insufficient funds, other declined.</p>
<button type="submit">${payout ? 'Receive payout' : 'Pay'}</button>
</form>`,
	);
}

/**
 * @param {string} title
 * @param {string} text
 */
function messagePage(title, text) {
	return page(title, `<h1>${esc(title)}</h1><p>${esc(text)}</p>`);
}

module.exports = { autoSubmit, acsPage, formPage, messagePage, esc };
