'use strict';
// How much longer than on an idle machine a test may take before we call it stuck. Budgets (hook
// and test timeouts, waits for a browser element or a callback) bound a hang; they never decide a
// verdict, so they scale with the machine: TEST_TIME_SCALE when set (CI on a slow runner, or 1 to
// find a hang fast), otherwise the load per core when the file was loaded, and never below 3, because
// a run that starts on an idle machine is often loaded by its own workers a minute later.
const os = require('node:os');

const MIN_SCALE = 3;

/** The factor, from TEST_TIME_SCALE or the machine's load. */
function timeScale(env = process.env, load = os.loadavg()[0], cores = os.availableParallelism()) {
	const set = Number(env.TEST_TIME_SCALE);
	if (env.TEST_TIME_SCALE !== undefined && env.TEST_TIME_SCALE !== '') {
		if (!Number.isFinite(set) || set <= 0)
			throw new Error(`TEST_TIME_SCALE must be a positive number, not "${env.TEST_TIME_SCALE}"`);
		return set;
	}
	return Math.max(MIN_SCALE, load / cores);
}

const TIME_SCALE = timeScale();

/** An idle machine's budget in ms, scaled for this one (whole ms). */
const scaled = (ms) => Math.ceil(ms * TIME_SCALE);

module.exports = { timeScale, TIME_SCALE, scaled };
