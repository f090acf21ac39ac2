// Campaign 5 — card data at rest: after the other campaigns, n8n's database (+ WAL), its logs, event
// logs and binary-data folder, and every node output the campaigns collected, searched for the test
// card numbers, CVVs, the control keys and the private key.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { PRIVATE_KEY } from '../test/support/e2e-environment';
import { CONTROL_KEY, OTHER_CONTROL_KEY, TEST_PANS, Tally, type CampaignResult } from '../test/support/campaign';
import { PAN_SPELLINGS } from '../test/support/card-numbers';

import type { ReliabilityN8n } from './n8n';

export function needles(): Array<{ label: string; bytes: Buffer }> {
	const keyLines = PRIVATE_KEY.split('\n').filter((line) => line.length === 64);
	if (keyLines.length < 10) throw new Error('the private key fixture is not a PEM');
	const cvvs = ['123', '321', '1234'].flatMap((cvv) => [
		`"cvv2":"${cvv}"`,
		`"cvv":"${cvv}"`,
		`"cvv2": "${cvv}"`,
		`"cvv": "${cvv}"`,
		`cvv2=${cvv}`,
		`cvv=${cvv}`,
	]);
	return [
		...TEST_PANS.map((pan) => ({ label: `PAN ${pan.slice(0, 6)}…`, value: pan })),
		...PAN_SPELLINGS.map((spelling, index) => ({ label: `PAN spelling #${index + 1}`, value: spelling })),
		...['"card_cvv":"737"', '"security-code":"737"', 'card_cvv=737'].map((value) => ({
			label: 'CVV under another name',
			value,
		})),
		...cvvs.map((cvv) => ({ label: `CVV ${cvv.replace(/\d+/, '***')}`, value: cvv })),
		{ label: 'control key', value: CONTROL_KEY },
		{ label: "other merchant's control key", value: OTHER_CONTROL_KEY },
		{ label: 'private key (middle line)', value: keyLines[Math.floor(keyLines.length / 2)] },
		{ label: 'private key (first line)', value: keyLines[0] },
	].map(({ label, value }) => ({ label, bytes: Buffer.from(value, 'utf8') }));
}

const walk = (dir: string): string[] =>
	existsSync(dir)
		? readdirSync(dir).flatMap((name) =>
				statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)],
			)
		: [];

export async function atRestCampaign(
	n8n: ReliabilityN8n,
	outputs: Array<{ campaign: string; texts: string[] }>,
): Promise<CampaignResult> {
	const started = Date.now();
	const tally = new Tally([
		'0 occurrences in n8n files',
		'0 occurrences in node outputs',
		'the scan finds what is there',
	]);
	const folder = join(n8n.env.userFolder, '.n8n');
	const files = [
		join(folder, 'database.sqlite'),
		join(folder, 'database.sqlite-wal'),
		join(n8n.env.userFolder, 'n8n.log'),
	].filter(existsSync);
	files.push(
		...readdirSync(folder)
			.filter((name) => name.startsWith('n8nEventLog'))
			.map((name) => join(folder, name)),
		...walk(join(folder, 'storage')),
		...walk(join(folder, 'binaryData')),
	);
	const search = needles();
	let bytes = 0;
	for (const file of files) {
		const content = readFileSync(file);
		bytes += content.length;
		for (const needle of search)
			tally.check(
				'0 occurrences in n8n files',
				!content.includes(needle.bytes),
				() => `${file.replace(n8n.env.userFolder, '<user folder>')}: ${needle.label}`,
			);
	}
	// The search works: the workflow IDs and the callbacks' masked card data are in the database.
	const database = Buffer.concat(
		files.filter((file) => /database\.sqlite/.test(file)).map((file) => readFileSync(file)),
	);
	tally.check(
		'the scan finds what is there',
		database.includes(Buffer.from('relLoad0000000001')),
		() => 'workflow id not found in the database',
	);
	tally.check(
		'the scan finds what is there',
		database.includes(Buffer.from('rel4-')),
		() => 'load callbacks not found in the database',
	);
	let outputCount = 0;
	for (const { campaign, texts } of outputs) {
		for (const text of texts) {
			outputCount++;
			const content = Buffer.from(text, 'utf8');
			for (const needle of search)
				tally.check(
					'0 occurrences in node outputs',
					!content.includes(needle.bytes),
					() => `${campaign} output #${outputCount}: ${needle.label}`,
				);
		}
	}
	return {
		id: 'atRest',
		title: 'Card data at rest',
		seed: 0,
		cases: files.length + outputCount,
		injected: `${search.length} needles (${TEST_PANS.length} test PANs, a PAN in ${PAN_SPELLINGS.length} other spellings, CVVs in JSON and form spellings and under other names, both control keys, two lines of the RSA private key) searched byte-wise in ${files.length} n8n files (${(bytes / 1024 / 1024).toFixed(1)} MiB: database.sqlite, -wal, n8n.log, event logs, binary data) and in ${outputCount} node outputs / execution dumps of the other campaigns`,
		invariants: tally.list(),
		figures: { files: files.map((file) => file.replace(n8n.env.userFolder, '<user folder>')).join(', ') },
		wallMs: Date.now() - started,
		outputs: [],
	};
}
