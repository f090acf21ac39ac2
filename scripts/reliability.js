'use strict';
// `npm run reliability`: builds the package, then runs the reliability campaigns
// (reliability/reliability.run.ts) with Jest, one after the other. `--help` lists the campaigns and
// the environment variables that pick and size them; a RELIABILITY_CAMPAIGNS name that no campaign
// has is refused (every campaign would be skipped, and a report of nothing written). The queue
// campaign's own flags (--answer-gateway, --queue-runs) become environment variables of the run; any
// other argument goes to Jest. The campaign list is read from reliability.run.ts, so it stays current.
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const REPO = path.resolve(__dirname, '..');
const RUN_FILE = path.join(REPO, 'reliability/reliability.run.ts');
/** The trigger's Answer the Gateway values the queue campaign can run with (reliability/queue.ts). */
const ANSWER_GATEWAY = ['whenReceived', 'afterWorkflowFinished'];

/**
 * The campaigns as reliability.run.ts declares them: `(selected.includes('faults') ? test :
 * test.skip)('1. faults …', …)`, or `(full ? test : test.skip)` for those that run only in the full run.
 */
function campaigns() {
	const source = fs.readFileSync(RUN_FILE, 'utf8');
	const all =
		(/const ALL = \[([^\]]*)\]/.exec(source)?.[1] ?? '').match(/'[^']+'/g)?.map((name) => name.slice(1, -1)) ?? [];
	const found = [];
	const declaration = /\((?:selected\.includes\('(\w+)'\)|(full)) \? test : test\.skip\)\(\s*'((?:[^'\\]|\\.)*)'/g;
	for (const match of source.matchAll(declaration)) {
		const [, name, fullOnly, title] = match;
		const [, number, what] = /^(\d+)\.\s*(.*)$/.exec(title.replace(/\\'/g, "'")) ?? [null, '?', title];
		found.push({
			name: name ?? null,
			number: Number(number),
			title: what,
			inFullRun: fullOnly ? true : all.includes(name),
			fullOnly: !!fullOnly,
		});
	}
	return { all, list: found.sort((a, b) => a.number - b.number) };
}

function help() {
	const { list } = campaigns();
	const width = Math.max(...list.map((c) => (c.name ?? '').length), 14) + 2;
	const rows = list.map((c) => {
		const name = c.fullOnly ? '(full run only)' : c.name;
		const note = c.fullOnly ? '' : c.inFullRun ? '' : '   [not in the full run; name it alone]';
		return `  ${name.padEnd(width)}${String(c.number).padStart(2)}. ${c.title}${note}`;
	});
	return `Usage: npm run reliability [-- <jest options>]
       RELIABILITY_CAMPAIGNS=<name>[,<name>…] npm run reliability

Builds the package (npm run build), then runs the reliability campaigns of
reliability/reliability.run.ts with Jest, one after the other (--runInBand): injected faults,
forged and hostile input against the sandbox gateway and, for some, a real n8n (the pinned
runtime, installed on first use). Seeds are fixed: a run reproduces its report's figures.
The full run takes about 20 minutes and writes docs/reliability.md.

Campaigns (name for RELIABILITY_CAMPAIGNS, number, what it runs):
${rows.join('\n')}

Environment:
  RELIABILITY_CAMPAIGNS   Comma-separated campaign names. Unset: every campaign of the full run
                          (campaign 5 included) → docs/reliability.md. A subset → only those,
                          report in test-artifacts/reliability/partial.md. "queue" alone →
                          campaign 9 in n8n's queue mode (PostgreSQL and Redis, installed with
                          apt-get when missing) → docs/reliability-queue.md.
  RELIABILITY_QUEUE_RUNS  Callbacks the queue campaign sends (default 2000).
  RELIABILITY_QUEUE_ANSWER_GATEWAY
                          The queue campaign's Answer the Gateway (default whenReceived).
  N8N_RUNTIME             Folder of the n8n runtime to use, or to install into (default:
                          ~/.cache/n8n-nodes-card-gateway/runtime-<lockfile hash>).

Options:
  -h, --help              This text.
  --answer-gateway VALUE  Queue campaign: the trigger's Answer the Gateway, whenReceived (default:
                          a dead worker's callback is brought back by the scheduled reconciliation)
                          or afterWorkflowFinished (the reconciliation switched off: every outcome
                          must come by the callback path, resent after a 500).
                          Sets RELIABILITY_QUEUE_ANSWER_GATEWAY.
  --queue-runs N          Queue campaign: callbacks to send (sets RELIABILITY_QUEUE_RUNS).
  anything else           Passed to Jest, e.g. --verbose or --testNamePattern "^1\\.".

A fixed-seed slice of campaigns 1–7 runs in \`npm test\` (test/reliability/); docs/reliability.md
describes every campaign and its invariants.
`;
}

/** Campaign names in RELIABILITY_CAMPAIGNS that no campaign has. */
function unknownCampaigns(value) {
	const { list } = campaigns();
	if (!list.length) return []; // reliability.run.ts changed shape: let it decide
	const known = new Set(list.map((c) => c.name).filter(Boolean));
	return value
		.split(',')
		.map((name) => name.trim())
		.filter((name) => !known.has(name));
}

/**
 * The queue campaign's flags, taken out of args into environment variables; refuses a bad value.
 * @returns {{ env: Record<string, string>, jestArgs: string[] }}
 */
function queueFlags(args) {
	const env = {};
	const jestArgs = [];
	for (let i = 0; i < args.length; i++) {
		const [flag, inline] = args[i].split(/=(.*)/s);
		if (flag !== '--answer-gateway' && flag !== '--queue-runs') {
			jestArgs.push(args[i]);
			continue;
		}
		const value = inline ?? args[++i];
		if (flag === '--answer-gateway') {
			if (!ANSWER_GATEWAY.includes(value)) throw new Error(`--answer-gateway must be ${ANSWER_GATEWAY.join(' or ')}`);
			env.RELIABILITY_QUEUE_ANSWER_GATEWAY = value;
		} else {
			if (!/^[1-9]\d*$/.test(value ?? '')) throw new Error('--queue-runs must be a positive integer');
			env.RELIABILITY_QUEUE_RUNS = value;
		}
	}
	return { env, jestArgs };
}

function main(args) {
	if (args.includes('--help') || args.includes('-h')) {
		process.stdout.write(help());
		return 0;
	}
	const { env, jestArgs } = queueFlags(args);
	const selected = process.env.RELIABILITY_CAMPAIGNS;
	if (selected !== undefined) {
		const unknown = unknownCampaigns(selected);
		if (unknown.length) {
			process.stderr.write(
				`[reliability] RELIABILITY_CAMPAIGNS names no campaign: ${unknown.map((name) => `"${name}"`).join(', ')}.\n`,
			);
			process.stderr.write(
				`[reliability] campaigns: ${campaigns()
					.list.map((c) => c.name)
					.filter(Boolean)
					.join(', ')} (npm run reliability -- --help)\n`,
			);
			return 2;
		}
	}
	require('./ensure-deps').ensureDependencies();
	const build = spawnSync('npm', ['run', 'build'], { cwd: REPO, stdio: 'inherit' });
	if (build.status !== 0) return build.status ?? 1;
	const jest = spawn(
		process.execPath,
		[
			require.resolve('jest/bin/jest', { paths: [REPO] }),
			'-c',
			'reliability/jest.config.js',
			'--runInBand',
			...jestArgs,
		],
		{ cwd: REPO, stdio: 'inherit', env: { ...process.env, ...env } },
	);
	// `npm run` forwards SIGINT and SIGTERM to this process (its script execs it): pass them on.
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => jest.kill(signal));
	jest.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
	return undefined;
}

try {
	const code = main(process.argv.slice(2));
	if (code !== undefined) process.exitCode = code;
} catch (error) {
	process.stderr.write(`[reliability] ${error.message}\n`);
	process.exitCode = 1;
}
