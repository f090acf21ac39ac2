// One seeded generator (mulberry32) for the judges' generated cases: the same seed gives the same
// cases, so a violation can be replayed.
'use strict';

/**
 * @param {number} seed
 * @returns {() => number} numbers in [0, 1)
 */
function seeded(seed) {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

module.exports = { seeded };
