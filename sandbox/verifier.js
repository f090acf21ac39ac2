// @ts-check
'use strict';
// The sandbox's own crypto, in two interchangeable backends. node-forge is the default so that the
// sandbox never shares an implementation with the client under test (which uses node:crypto);
// 'node' exists for benchmarks, where forge's RSA verify (~180/s at 4096 bits) would be the bottleneck.
const nodeCrypto = require('node:crypto');
const forge = require('node-forge');

/**
 * @param {unknown} a
 * @param {unknown} b
 */
function timingSafeEqualStr(a, b) {
	const ba = Buffer.from(String(a), 'utf8');
	const bb = Buffer.from(String(b), 'utf8');
	return ba.length === bb.length && nodeCrypto.timingSafeEqual(ba, bb);
}

/** @type {import('./engine/types').Verifier} */
const forgeBackend = {
	name: 'forge',
	sha1Hex(text) {
		const md = forge.md.sha1.create();
		md.update(text, 'utf8');
		return md.digest().toHex();
	},
	hmacSha1Base64(key, text) {
		const hmac = forge.hmac.create();
		hmac.start('sha1', forge.util.encodeUtf8(key));
		hmac.update(forge.util.encodeUtf8(text));
		return forge.util.encode64(hmac.digest().getBytes());
	},
	loadPublicKey(pem) {
		return forge.pki.publicKeyFromPem(pem);
	},
	rsaSha256Verify(publicKey, text, signature) {
		const md = forge.md.sha256.create();
		md.update(text, 'utf8');
		try {
			// PKCS#1 v1.5 (forge's default scheme); throws on malformed padding or wrong length.
			return publicKey.verify(md.digest().getBytes(), signature.toString('binary'));
		} catch {
			return false;
		}
	},
};

/** @type {import('./engine/types').Verifier} */
const nodeBackend = {
	name: 'node',
	sha1Hex(text) {
		return nodeCrypto.createHash('sha1').update(text, 'utf8').digest('hex');
	},
	hmacSha1Base64(key, text) {
		return nodeCrypto.createHmac('sha1', key).update(text, 'utf8').digest('base64');
	},
	loadPublicKey(pem) {
		return nodeCrypto.createPublicKey(pem);
	},
	rsaSha256Verify(publicKey, text, signature) {
		try {
			return nodeCrypto.verify('sha256', Buffer.from(text, 'utf8'), publicKey, signature);
		} catch {
			return false;
		}
	},
};

/**
 * @param {string} [name]   'forge' (default) or 'node'
 * @returns {import('./engine/types').Verifier}
 */
function createVerifier(name = 'forge') {
	if (name === 'forge') return forgeBackend;
	if (name === 'node') return nodeBackend;
	throw new Error(`Unknown verifier '${name}' (use 'forge' or 'node')`);
}

/**
 * SHA-1 `control` check: 40 hex chars, compared case-insensitively.
 * @param {import('./engine/types').Verifier} verifier
 * @param {string} concatenation
 * @param {string | undefined} control
 */
function controlMatches(verifier, concatenation, control) {
	const given = String(control || '');
	if (!/^[0-9a-fA-F]{40}$/.test(given)) return false;
	return timingSafeEqualStr(verifier.sha1Hex(concatenation), given.toLowerCase());
}

module.exports = { createVerifier, controlMatches, timingSafeEqualStr };
