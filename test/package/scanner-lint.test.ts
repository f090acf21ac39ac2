// n8n's verification scanner, lint leg (scripts/scan-lint.mjs): the source and the packed tarball
// pass it with its own configuration and inline eslint-disable comments ignored, so a submission
// cannot pass our lint and fail n8n's. Its warnings do not fail a scan; each one it prints was
// looked at and is listed here with the decision (README, "n8n's scanner").
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { scaled } from '../support/time-scale';

const run = promisify(execFile);
const REPO = join(__dirname, '../..');
const SCAN = join(REPO, 'scripts/scan-lint.mjs');

type Message = { file: string; line: number; rule: string; severity: 'error' | 'warning'; message: string };
type Leg = { passed: boolean; reason?: string; files: number; messages: Message[] };
type Report = { scanner: string; source: Leg; tarball?: Leg };

const ACCEPTED_WARNINGS = [
	{
		file: 'credentials/CardGatewayApi.credentials.ts',
		rule: '@n8n/community-nodes/credential-unnecessary-password',
		field: 'controlKey',
		// the merchant control key is the shared secret behind every request's and callback's SHA-1
		// `control`: whoever reads it can sign requests and forge callbacks, so n8n must mask it
		decision: 'kept password: true',
	},
];

async function scan(...args: string[]): Promise<Report> {
	const { stdout } = await run(process.execPath, [SCAN, '--json', ...args], {
		cwd: REPO,
		maxBuffer: 16 * 1024 * 1024,
	}).catch((error) => error);
	return JSON.parse(stdout.trim().split('\n').pop());
}

test(
	"the source and the packed tarball pass the scanner's lint, with no warning but the accepted ones",
	async () => {
		const report = await scan();
		expect(report.scanner).toBe('0.32.0');
		for (const leg of [report.source, report.tarball!]) {
			expect(leg).toMatchObject({ passed: true });
			expect(leg.files).toBeGreaterThan(10);
			expect(leg.messages.filter((m) => m.severity === 'error')).toEqual([]);
		}
		const warnings = [...report.source.messages, ...report.tarball!.messages].filter((m) => m.severity === 'warning');
		const unaccepted = warnings.filter(
			(w) =>
				!ACCEPTED_WARNINGS.some((a) => a.file === w.file && a.rule === w.rule && w.message.includes(`'${a.field}'`)),
		);
		expect(unaccepted).toEqual([]);
	},
	scaled(180_000),
);
test(
	'an eslint-disable comment does not hide a violation from it, as in the real scan',
	async () => {
		const copy = mkdtempSync(join(tmpdir(), 'card-gateway-scan-source-'));
		try {
			for (const part of ['package.json', 'nodes', 'credentials'])
				cpSync(join(REPO, part), join(copy, part), { recursive: true });
			const file = join(copy, 'nodes/CardGateway/CardGateway.node.ts');
			writeFileSync(
				file,
				`${readFileSync(file, 'utf8')}\n// eslint-disable-next-line no-console\nconsole.log('planted');\n`,
			);
			const report = await scan(`--source=${copy}`, '--tarball=none');
			expect(report.source.passed).toBe(false);
			expect(report.source.messages).toEqual(
				expect.arrayContaining([
					expect.objectContaining({
						file: 'nodes/CardGateway/CardGateway.node.ts',
						rule: 'no-console',
						severity: 'error',
					}),
				]),
			);
		} finally {
			rmSync(copy, { recursive: true, force: true });
		}
	},
	scaled(180_000),
);
