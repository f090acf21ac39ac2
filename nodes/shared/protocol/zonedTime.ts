import { GatewayInputError } from './errors';

/*
 * Wall-clock times of a named time zone as UTC instants, with Intl only (no time-zone data of our
 * own). A report row's time carries no zone: the node reads it in the zone it is told.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** The zone's canonical IANA name; a name Intl does not know is refused, naming the field. */
export function checkedTimeZone(value: unknown, field: string): string {
	const name = typeof value === 'string' ? value.trim() : '';
	const zone = name ? knownZone(name) : undefined;
	if (!zone) {
		throw new GatewayInputError(
			field,
			`"${field}" must be an IANA time zone such as Europe/Moscow or UTC, got "${name.slice(0, 40)}"`,
		);
	}
	return zone;
}

function knownZone(name: string): string | undefined {
	try {
		return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
	} catch {
		return undefined;
	}
}

/** `YYYY-MM-DD HH:MM`, then the rest of a time: `:SS`, a fraction, an offset of its own. */
const WALL_MINUTE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})$/;
const REST = /^(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Reads `YYYY-MM-DD HH:MM[:SS[.fff]]` (a T between date and time too) as a wall-clock time of one
 * zone. A time that names its own offset (`Z`, `+03:00`) is read at that offset.
 */
export class ZonedTimeReader {
	private readonly format: Intl.DateTimeFormat;
	/** Wall-clock minutes read so far, as UTC-read milliseconds (NaN: not a time): report rows share few. */
	private readonly minutes = new Map<string, number>();
	/** The zone's offset by wall-clock minute: Intl is slow. */
	private readonly offsets = new Map<number, number>();

	constructor(readonly timeZone: string) {
		this.format = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
	}

	/** The instant as ISO 8601 UTC (`…Z`), or undefined when the text is not a date and time of the calendar. */
	instant(text: string): string | undefined {
		const minute = this.wallMinute(text.slice(0, 16));
		const rest = REST.exec(text.slice(16));
		if (Number.isNaN(minute) || !rest) return undefined;
		const [, second = '0', fraction = '', offset] = rest;
		if (+second > 59) return undefined;
		const wall = minute + +second * 1000 + +fraction.padEnd(3, '0').slice(0, 3);
		return new Date(wall - (offset ? explicitOffsetMs(offset) : this.offsetOfWallMinute(minute))).toISOString();
	}

	private wallMinute(text: string): number {
		let minute = this.minutes.get(text);
		if (minute === undefined) {
			const match = WALL_MINUTE.exec(text);
			minute = NaN;
			if (match) {
				const [, year, month, day, hour, min] = match.map(Number);
				const wall = Date.UTC(year, month - 1, day, hour, min);
				const back = new Date(wall);
				// Date.UTC rolls 2026-02-30, month 13 or 24:00 over: such a text is not a time.
				const same = back.getUTCMonth() === month - 1 && back.getUTCDate() === day && back.getUTCHours() === hour;
				if (same && min <= 59) minute = wall;
			}
			if (this.minutes.size >= 100_000) this.minutes.clear();
			this.minutes.set(text, minute);
		}
		return minute;
	}

	/**
	 * The zone's offset for a wall-clock time. A time that occurs twice (clocks going back) is read
	 * as the earlier; one that does not occur (clocks going forward) at the offset before the change,
	 * i.e. as the later time: what Temporal calls "compatible".
	 */
	private offsetOfWallMinute(minute: number): number {
		let offset = this.offsets.get(minute);
		if (offset === undefined) {
			const before = this.offsetAt(minute - DAY_MS);
			const after = this.offsetAt(minute + DAY_MS);
			// The larger offset gives the earlier instant.
			const candidates = before === after ? [before] : [Math.max(before, after), Math.min(before, after)];
			offset = candidates.find((candidate) => this.offsetAt(minute - candidate) === candidate) ?? before;
			if (this.offsets.size >= 100_000) this.offsets.clear();
			this.offsets.set(minute, offset);
		}
		return offset;
	}

	/** Wall clock minus UTC at an instant, in milliseconds (whole seconds). */
	private offsetAt(instant: number): number {
		const parts: Record<string, number> = {};
		for (const part of this.format.formatToParts(new Date(instant))) parts[part.type] = Number(part.value);
		const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
		return wall - Math.floor(instant / 1000) * 1000;
	}
}

function explicitOffsetMs(offset: string): number {
	if (offset.toUpperCase() === 'Z') return 0;
	const digits = offset.replace(':', '');
	const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
	return (digits[0] === '-' ? -1 : 1) * minutes * MINUTE_MS;
}
