// @ts-check
'use strict';
// Wall times in a named (IANA) time zone, both ways: the platform's report layouts show times in the
// gateway server's zone and the user's, and read their date filters in the server's.

/** @type {Map<string, Intl.DateTimeFormat>} */
const FORMATS = new Map();

/**
 * @param {string} zone
 * @returns {Intl.DateTimeFormat}
 */
function formatOf(zone) {
	let format = FORMATS.get(zone);
	if (!format) {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		});
		FORMATS.set(zone, format);
	}
	return format;
}

/**
 * Throws unless `zone` is a time zone this runtime knows.
 * @param {string} zone
 * @param {string} what   the option's name, for the message
 */
function requireTimeZone(zone, what) {
	try {
		formatOf(String(zone));
	} catch {
		throw new Error(`${what} must be an IANA time zone such as Europe/Moscow, got '${zone}'`);
	}
}

/**
 * The zone's offset from UTC at an instant, in milliseconds (Moscow: +3 h).
 * @param {string} zone
 * @param {number} ms
 */
function offsetMs(zone, ms) {
	/** @type {Record<string, number>} */
	const parts = {};
	for (const part of formatOf(zone).formatToParts(new Date(ms))) parts[part.type] = Number(part.value);
	const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
	return wall - (ms - (((ms % 1000) + 1000) % 1000));
}

/**
 * An instant as the zone's wall clock shows it: `YYYY-MM-DDTHH:MM:SS.mmm` (no zone).
 * @param {string} zone
 * @param {number} ms
 */
function wallTime(zone, ms) {
	return new Date(ms + offsetMs(zone, ms)).toISOString().slice(0, 23);
}

/**
 * The instant a wall time of the zone names. A wall time a clock change skips or repeats has two
 * readings (one per offset around the change): the later one.
 * @param {string} zone
 * @param {number} wallMs   the wall time's fields read as if UTC (Date.UTC of them)
 */
function instantOf(zone, wallMs) {
	const readings = [wallMs - offsetMs(zone, wallMs)];
	readings.push(wallMs - offsetMs(zone, readings[0]));
	const exact = readings.filter((ms) => ms + offsetMs(zone, ms) === wallMs);
	return Math.max(...(exact.length > 0 ? exact : readings));
}

module.exports = { requireTimeZone, wallTime, instantOf };
