'use strict';
// Command-line flags of the bench scripts (bench/README.md lists them all). `--help` (`-h`) prints
// the script's usage and exits; a flag the script does not know, or a value outside its list, is
// refused with the usage: a typo (--quik) would otherwise start the full run, up to an hour.
// Node's built-ins only, and called before anything else is required, so that --help works
// without a build or node_modules/.

/**
 * Checks process.argv against the script's flags and exits on --help or a bad flag.
 * `flags`: the flags taken, a value flag written with its "=" ("--skip="); `choices`: for a value
 * flag, the comma-separated values it accepts; `positionals`: [fewest, most] other arguments.
 */
function checkArgs(usage, { flags = [], choices = {}, positionals = [0, 0] } = {}, args = process.argv.slice(2)) {
	const text = usage.endsWith('\n') ? usage : `${usage}\n`;
	if (args.includes('--help') || args.includes('-h')) {
		process.stdout.write(text);
		process.exit(0);
	}
	const refuse = (why) => {
		process.stderr.write(`${why}\n\n${text}`);
		process.exit(2);
	};
	let count = 0;
	for (const arg of args) {
		if (!arg.startsWith('-')) {
			count++;
			continue;
		}
		const at = arg.indexOf('=');
		const name = at < 0 ? arg : arg.slice(0, at + 1);
		if (!flags.includes(name))
			refuse(flags.includes(`${arg}=`) ? `${arg} takes a value: ${arg}=…` : `unknown flag: ${arg}`);
		if (at < 0) continue;
		const value = arg.slice(at + 1);
		if (!value) refuse(`${arg} needs a value`);
		const allowed = choices[name];
		const wrong = allowed ? value.split(',').filter((part) => !allowed.includes(part)) : [];
		if (wrong.length)
			refuse(`${name}: unknown ${wrong.map((part) => `"${part}"`).join(', ')} (one or more of ${allowed.join(',')})`);
	}
	const [fewest, most] = positionals;
	if (count < fewest || count > most)
		refuse(
			fewest === most && most === 0
				? `no arguments other than flags are taken`
				: `expected ${fewest === most ? fewest : `${fewest} to ${most}`} argument(s), got ${count}`,
		);
}

module.exports = { checkArgs };
