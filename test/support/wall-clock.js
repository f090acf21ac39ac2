// An instant on a zone's wall clock, from Intl's own zone tables: how the tests and judges compute
// report times independently of the node's zonedTime.ts and the sandbox's zones.js.
'use strict';

/** @type {Map<string, Intl.DateTimeFormat>} */
const clocks = new Map();

/**
 * The wall-clock fields of an instant in an IANA zone, as numbers (whole seconds; the milliseconds
 * are the caller's).
 * @param {string} zone
 * @param {number} ms
 * @returns {{ year: number, month: number, day: number, hour: number, minute: number, second: number }}
 */
function wallParts(zone, ms) {
	let clock = clocks.get(zone);
	if (!clock) {
		clock = new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
		clocks.set(zone, clock);
	}
	const parts = Object.fromEntries(clock.formatToParts(new Date(ms)).map(({ type, value }) => [type, Number(value)]));
	const { year, month, day, hour, minute, second } = parts;
	return { year, month, day, hour, minute, second };
}

module.exports = { wallParts };
