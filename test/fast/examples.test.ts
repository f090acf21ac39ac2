// The example workflows as shipped and as the demo imports them: each one is documented in
// examples/README.md (a row of the table and a section of its own), none names a port of its own
// (only the sandbox's documented default, which the demo points at the sandbox it started), and a
// restart of the demo imports only what the user has not changed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const { DEFAULT_SANDBOX_URL, exampleWorkflows, importPlan, contentHash } = require('../../scripts/demo-setup');

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const FILES = readdirSync(EXAMPLES).filter((name) => name.endsWith('.json'));
const README = readFileSync(join(EXAMPLES, 'README.md'), 'utf8');

type Workflow = { id: string; name: string; nodes: Array<{ name: string; parameters: Record<string, unknown> }> };
const read = (file: string): Workflow => JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8'));

/** A title as words: "Callback outcome, exactly once" and "callback outcome exactly once (with …)" are one. */
const words = (title: string) =>
	title
		.toLowerCase()
		.replace(/\(.*?\)/g, '')
		.replace(/[^a-z0-9]+/g, ' ')
		.trim();

test.each(FILES)('%s has its row in the table and its own section in examples/README.md', (file) => {
	expect(README).toContain(`| [\`${file}\`](${file}) |`);
	const sections = [...README.matchAll(/^## (.+)$/gm)].map(([, title]) => words(title));
	expect(sections).toContain(words(read(file).name.replace(/^Example: /, '')));
});

test('no example names a loopback port other than the sandbox default', () => {
	const origins = FILES.flatMap((file) =>
		[
			...readFileSync(join(EXAMPLES, file), 'utf8').matchAll(/https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?/g),
		].map(([origin]) => `${file}: ${origin}`),
	);
	expect(origins.length).toBeGreaterThan(0);
	expect(origins.filter((line) => !line.endsWith(`: ${DEFAULT_SANDBOX_URL}`))).toEqual([]);
});

test('the demo points every sandbox URL of the examples at the sandbox it started', () => {
	const started = 'http://127.0.0.1:8961';
	const shipped = JSON.stringify(exampleWorkflows());
	const imported = JSON.stringify(exampleWorkflows(started));
	expect(shipped.split(DEFAULT_SANDBOX_URL).length).toBeGreaterThan(1);
	expect(imported).not.toContain(DEFAULT_SANDBOX_URL);
	expect(imported.split(started).length).toBe(shipped.split(DEFAULT_SANDBOX_URL).length);
	expect(imported.split(started).join(DEFAULT_SANDBOX_URL)).toBe(shipped);
});

describe('a restart of the demo imports only what the user has not changed', () => {
	const [one, two, three, four] = exampleWorkflows() as Workflow[];
	const edited = (workflow: Workflow): Workflow => ({
		...workflow,
		nodes: workflow.nodes.map((node, index) =>
			index === 0 ? { ...node, parameters: { ...node.parameters, edited: true } } : node,
		),
	});
	// What n8n's export adds to a workflow is its own bookkeeping, not content.
	const stored = (workflow: Workflow) => ({ ...workflow, versionId: 'v-1', updatedAt: '2026-11-28', shared: [] });
	const ids = (list: Workflow[]) => list.map((workflow) => workflow.id);

	test('new, unchanged and never-touched-but-shipped-anew are imported; an edited copy is kept', () => {
		const older = edited(three); // the shipped version the demo imported last time, since changed
		const n8nHas = new Map([
			[two.id, stored(two)],
			[older.id, stored(older)],
			[four.id, stored(edited(four))],
		]);
		const record = { [two.id]: contentHash(two), [three.id]: contentHash(older), [four.id]: contentHash(four) };
		const plan = importPlan([one, two, three, four], n8nHas, record);
		expect(ids(plan.imports)).toEqual([one.id, two.id, three.id]);
		expect(ids(plan.updates)).toEqual([three.id]);
		expect(ids(plan.kept)).toEqual([four.id]);
	});

	test('a copy that differs from the shipped one, with no record of an import, is kept', () => {
		const plan = importPlan([one], new Map([[one.id, stored(edited(one))]]), {});
		expect(ids(plan.kept)).toEqual([one.id]);
	});

	test('DEMO_RESET_EXAMPLES (reset) imports everything', () => {
		const plan = importPlan([one], new Map([[one.id, stored(edited(one))]]), {}, true);
		expect(ids(plan.imports)).toEqual([one.id]);
		expect(plan.kept).toEqual([]);
	});
});
