'use strict';
// scripts/sandbox.js: flags, one masked log line per request, clean stop on SIGINT / SIGTERM.
const { describe, it, expect } = require('@jest/globals');
const { spawn, spawnSync } = require('node:child_process');
const path = require('node:path');
const { Client } = require('../support/sandbox-client');

const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'sandbox.js');

function start(args) {
	const child = spawn(process.execPath, [SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
	let out = '';
	child.stdout.on('data', (d) => {
		out += d;
	});
	child.stderr.on('data', (d) => {
		out += d;
	});
	const ready = new Promise((resolve, reject) => {
		const check = () => {
			const m = /listening on (http:\/\/\S+)/.exec(out);
			if (m) resolve(m[1]);
		};
		child.stdout.on('data', check);
		child.on('exit', (code) => reject(new Error(`exited early (${code}): ${out}`)));
	});
	const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
	return { child, ready, exited, output: () => out };
}

describe('CLI', () => {
	it.each(['SIGINT', 'SIGTERM'])(
		'serves, logs one masked line per request and stops on %s with exit 0',
		async (signal) => {
			const proc = start(['--port', '0', '--verifier', 'node', '--polls-before-final', '1', '--latency-ms', '0']);
			const url = await proc.ready;
			const c = new Client({ url });
			const s = await c.sale({ cvv2: '1234' });
			expect(s.data.type).toBe('async-response');
			expect((await c.status(s.orderid, s.params.client_orderid)).data.status).toBe('processing');
			expect((await c.status(s.orderid, s.params.client_orderid)).data.status).toBe('approved');
			const info = (await c.admin('GET', '')).data;
			expect(info).toMatchObject({ verifier: 'node', pollsBeforeFinal: 1 });
			proc.child.kill(signal);
			expect(await proc.exited).toEqual({ code: 0, signal: null });
			const lines = proc
				.output()
				.split('\n')
				.filter((l) => / (GET|POST) /.test(l));
			expect(lines).toHaveLength(4);
			expect(lines[0]).toMatch(/ POST \/paynet\/api\/v2\/sale\/1001 sale async-response \d+ms /);
			expect(lines[0]).toContain('444455******1111');
			expect(lines[2]).toMatch(/status status-response:approved/);
			expect(proc.output()).not.toContain('4444555566661111');
			expect(proc.output()).not.toContain('1234 ');
			expect(proc.output()).not.toContain('TEST-ONLY-CONTROL-KEY');
		},
	);

	it('refuses unknown flags with exit code 2', () => {
		const r = spawnSync(process.execPath, [SCRIPT, '--nope'], { encoding: 'utf8' });
		expect(r.status).toBe(2);
		expect(r.stderr).toMatch(/Unknown argument --nope/);
		const v = spawnSync(process.execPath, [SCRIPT, '--verifier', 'openssl'], { encoding: 'utf8' });
		expect(v.status).toBe(2);
	});
});
