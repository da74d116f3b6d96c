import { NodeOperationError, type INode } from 'n8n-workflow';

/**
 * The platform's times. The API writes them as local times without a zone (`YYYY-MM-DD HH:MM:SS`), in the time zone
 * of the platform's server; the credential's Platform Time Zone names it (IANA, default UTC). Only what compares a
 * platform time with the real clock needs it (the 24-hour window); comparing two platform times does not.
 */
export const DEFAULT_PLATFORM_TIME_ZONE = 'UTC';

/** One formatter per zone: building one costs far more than using it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
	let formatter = formatters.get(zone);
	if (!formatter) {
		// Throws a RangeError for a zone the runtime does not know.
		formatter = new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
		formatters.set(zone, formatter);
	}
	return formatter;
}

/** What is wrong with a time zone name, or undefined when the runtime knows it. */
export function timeZoneProblem(zone: string): string | undefined {
	if (zone.trim() === '')
		return 'Platform Time Zone is empty: type an IANA time zone such as UTC or Asia/Dhaka';
	try {
		formatterFor(zone.trim());
		return undefined;
	} catch {
		return `Platform Time Zone "${zone}" is not a time zone: type an IANA name such as UTC, Europe/Berlin or Asia/Dhaka`;
	}
}

/** The credential's Platform Time Zone; a missing one (a credential saved before it existed) is UTC. */
export function platformTimeZone(
	node: INode,
	credentials: { platformTimeZone?: unknown } | undefined,
): string {
	const zone = String(credentials?.platformTimeZone ?? DEFAULT_PLATFORM_TIME_ZONE).trim();
	const problem = timeZoneProblem(zone);
	if (problem)
		throw new NodeOperationError(node, problem, {
			description:
				'Fix Platform Time Zone in the BotSailor credential: the time zone your platform shows conversation times in. Nothing was sent to the platform.',
		});
	return zone;
}

/** The zone's offset from UTC at an instant, in milliseconds (UTC+6 is 6 h). */
function offsetAt(instant: number, zone: string): number {
	const parts: Record<string, number> = {};
	for (const part of formatterFor(zone).formatToParts(new Date(instant)))
		if (part.type !== 'literal') parts[part.type] = Number(part.value);
	const wall = Date.UTC(
		parts.year,
		parts.month - 1,
		parts.day,
		parts.hour,
		parts.minute,
		parts.second,
	);
	return wall - Math.floor(instant / 1000) * 1000;
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A platform time as an instant. `YYYY-MM-DD HH:MM(:SS)` is read in `zone` (a time that a clock change skips or
 * repeats takes the offset before the change); a time that names its zone (`…Z`, `…+06:00`) or a Unix time in
 * seconds or milliseconds is read as it says. Undefined for anything else.
 */
export function platformTimeToDate(text: unknown, zone: string): Date | undefined {
	const value = String(text ?? '').trim();
	if (/^\d{10}$/.test(value)) return new Date(Number(value) * 1000);
	if (/^\d{13}$/.test(value)) return new Date(Number(value));
	const local = LOCAL_TIME.exec(value);
	if (!local) {
		if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(value)) return undefined;
		const parsed = Date.parse(value.replace(' ', 'T'));
		return Number.isNaN(parsed) ? undefined : new Date(parsed);
	}
	const [year, month, day, hour, minute, second] = local.slice(1).map((part) => Number(part ?? 0));
	const wall = Date.UTC(year, month - 1, day, hour, minute, second);
	// A date the calendar does not have (MySQL's zero date 0000-00-00, a 31 February, hour 25) is no time: Date.UTC
	// would roll it over (the zero date into 1899).
	const back = new Date(wall);
	if (
		Number.isNaN(wall) ||
		back.getUTCFullYear() !== year ||
		back.getUTCMonth() !== month - 1 ||
		back.getUTCDate() !== day ||
		back.getUTCHours() !== hour ||
		back.getUTCMinutes() !== minute ||
		back.getUTCSeconds() !== second
	)
		return undefined;
	// The offset at a first guess, then at the instant it gives (right across a clock change).
	const guess = wall - offsetAt(wall, zone);
	return new Date(wall - offsetAt(guess, zone));
}

/** Before WhatsApp existed (2009): a platform time this early is a placeholder or garbage, never a message's time. */
export const EARLIEST_PLATFORM_TIME = Date.UTC(2009, 0, 1);
/** How far ahead of this machine's clock a platform time may be (clock drift); beyond it the time is not evidence. */
export const FUTURE_TOLERANCE_MS = 15 * 60_000;

/**
 * A platform time as evidence of when something happened, or why it is none: the time must read (platformTimeToDate),
 * fall after WhatsApp existed and not after now (a few minutes of clock drift aside). A time in the future usually
 * means that the credential's Platform Time Zone is not the platform's.
 */
export function platformTimeEvidence(
	text: unknown,
	zone: string,
	now = Date.now(),
): { at: Date } | { problem: string } {
	const shown = JSON.stringify(String(text ?? ''));
	const at = platformTimeToDate(text, zone);
	if (!at)
		return {
			problem:
				String(text ?? '').trim() === ''
					? 'has no time'
					: `has a time that is not a time: ${shown}`,
		};
	if (at.getTime() < EARLIEST_PLATFORM_TIME)
		return { problem: `has a time before WhatsApp existed: ${shown}` };
	if (at.getTime() > now + FUTURE_TOLERANCE_MS)
		return {
			problem: `has a time in the future: ${shown} (in ${zone}; check the credential's Platform Time Zone)`,
		};
	return { at };
}
