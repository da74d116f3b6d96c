import { z } from 'zod';
import type { SimState } from './state';

/** An uploaded file as the simulator keeps it. */
export interface UploadedFile {
	name: string;
	type: string;
	size: number;
	sha256: string;
	bytes: Buffer;
}

export interface RouteContext {
	/** The validated parameters (apiToken removed). */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- validated by the route's own schema
	params: Record<string, any>;
	files: Record<string, UploadedFile>;
	state: SimState;
	method: string;
}

/** What a handler returns: the JSON envelope, and an HTTP status when it is not 200. */
export interface Reply {
	httpStatus?: number;
	body: Record<string, unknown>;
}

export interface Route {
	/** Path under /api/v1, e.g. `/user/myInfo`. */
	path: string;
	/** Accepted methods; the spec allows both on every endpoint (Conventions, point 3). */
	methods?: Array<'GET' | 'POST'>;
	/** The endpoint's parameters. Unknown or missing ones are refused with status "0" naming them. */
	params: z.ZodObject<z.ZodRawShape>;
	/** Names of repeatable parameters accepted besides `params` (send template's `templateVariable-{LABEL}-{POSITION}`). */
	extraParams?: RegExp;
	/** Accepts a JSON body (template create, template status). */
	json?: boolean;
	/** Accepts multipart/form-data (upload media). */
	multipart?: boolean;
	handle(context: RouteContext): Reply | Record<string, unknown>;
}

/** Success and failure envelopes. */
export const ok = (fields: Record<string, unknown> = {}) => ({ status: '1', ...fields });
export const fail = (message: string) => ({ status: '0', message });

export const SUBSCRIBER_LIMIT_TEXT =
	'Subscriber limit has been exceeded. You cannot have more subscribers.';

/**
 * The refusal of a free-form send (text, buttons, media) to a subscriber whose last message is more than 24 hours old.
 * SPEC-GAP: the spec says a free-text message only reaches a subscriber within 24 hours of their own message, not
 * what the API answers outside it; this is the text integrators report from deployments of this software (the node
 * recognises it and its variants in nodes/shared/whatsapp/sessionWindow.ts).
 */
export const OUTSIDE_WINDOW_TEXT =
	'Sending message outside 24 hour window is not allowed. You can only send template message to this user.';

/** Field schemas as the API reads form values (everything arrives as text). */
export const p = {
	string: z.string(),
	required: z.string().min(1),
	integer: z.string().regex(/^\d+$/, 'must be an integer'),
	number: z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a number'),
	date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD'),
	email: z.string().email('must be an email'),
	flag: z.enum(['0', '1']),
	json: z.string().refine((value) => {
		try {
			JSON.parse(value);
			return true;
		} catch {
			return false;
		}
	}, 'must be JSON'),
	idList: z.string().regex(/^\d+(,\d+)*$/, 'must be comma-separated ids'),
	oneOf: <T extends string>(values: readonly [T, ...T[]]) => z.enum(values),
};

/** Paginates an array by page number (offset) and page size (limit), announcing nextOffset when more remain. */
export function page<T>(
	rows: T[],
	limitText: unknown,
	offsetText: unknown,
	{ defaultLimit, maxLimit }: { defaultLimit: number; maxLimit: number },
) {
	const limit = Math.min(Number(limitText ?? defaultLimit) || defaultLimit, maxLimit);
	const offset = Math.max(1, Number(offsetText ?? 1) || 1);
	const start = (offset - 1) * limit;
	const slice = rows.slice(start, start + limit);
	const more = start + limit < rows.length;
	return { message: slice, ...(more ? { nextOffset: offset + 1 } : {}) };
}
