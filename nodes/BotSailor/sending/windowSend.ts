import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { outcomeOf } from '../../shared/http/failures';
import { isOutsideWindowRefusal, type WindowStatus } from '../../shared/whatsapp/sessionWindow';

/**
 * A free-form send (Send Text, Send Buttons, Send Media) under its "Outside the 24-Hour Window" choice:
 * - fail: the platform's refusal is the item's error (what the sends always did);
 * - template: the chosen template is sent instead;
 * - skip: nothing is sent, the item is output with `skipped: true` and the reason.
 * Outside the window is known from the platform's refusal (status "0": nothing was sent, so sending the template
 * cannot send twice), or, with Check Window First, from the conversation before the free-form send. An uncertain
 * outcome (a 504, a lost answer) is never taken for a refusal: it stays "may have been delivered".
 */

/** What the item does when its subscriber is outside the window; checked before any request. */
export type WindowChoice =
	| { action: 'fail' }
	| { action: 'skip'; checkFirst: boolean }
	| { action: 'template'; checkFirst: boolean; template: IDataObject };

/** What a free-form send is, in the output's `sent_as`. */
export type SessionKind = 'text' | 'buttons' | 'media';

/** The requests of one item, as its driver makes them (each under the delivery policy). */
export interface WindowSteps {
	/** The free-form send (with its own steps first, e.g. Send Media's upload); its output records. */
	sendFree(): Promise<IDataObject[]>;
	/** A template send with these fields; its output records. */
	sendTemplate(fields: IDataObject): Promise<IDataObject[]>;
	/** The subscriber's window, read from the conversation. */
	readWindow(): Promise<WindowStatus>;
}

const FAIL_HINT =
	'The subscriber last wrote more than 24 hours ago, so WhatsApp only lets a template reach them. Nothing was sent. To handle this in the node, set "Outside the 24-Hour Window" to Send a Template Instead or Skip.';

/** A refusal for the window, its description saying what it means and what to change. */
function explained(error: unknown): unknown {
	if (!isOutsideWindowRefusal(error)) return error;
	const failure = error as NodeApiError | NodeOperationError;
	if (!String(failure.description ?? '').includes(FAIL_HINT))
		failure.description = [failure.description, FAIL_HINT].filter(Boolean).join(' ');
	failure.context = { ...failure.context, outsideWindow: true };
	return failure;
}

/** Runs one item's free-form send under its window choice; returns its output records. */
export async function sendInWindow(
	kind: SessionKind,
	choice: WindowChoice,
	phoneNumber: unknown,
	steps: WindowSteps,
): Promise<IDataObject[]> {
	if (choice.action === 'fail') {
		try {
			return await steps.sendFree();
		} catch (error) {
			throw explained(error);
		}
	}
	/** The template sent instead; its failure names why the template was sent, then its own refusal (both texts). */
	const instead = async (reason: string): Promise<IDataObject[]> => {
		if (choice.action === 'skip')
			return [{ skipped: true, reason, phone_number: String(phoneNumber ?? '') }];
		try {
			return (await steps.sendTemplate(choice.template)).map((record) => ({
				...record,
				sent_as: 'template',
			}));
		} catch (error) {
			throw bothRefusals(error, kind, reason);
		}
	};
	if (choice.checkFirst) {
		const window = await steps.readWindow();
		// Unknown (window_open null: times that are no evidence) is no reason to skip or to send a template: the
		// free-form send is attempted, and the platform's refusal decides below.
		if (window.window_open === false)
			return await instead(
				window.last_incoming_at
					? `Outside the 24-hour window: the subscriber last wrote at ${window.last_incoming_at} (checked before sending)`
					: 'Outside the 24-hour window: the subscriber has not written to this number (checked before sending)',
			);
	}
	let failure: unknown;
	try {
		return (await steps.sendFree()).map((record) => ({ ...record, sent_as: kind }));
	} catch (error) {
		failure = error;
	}
	if (!isOutsideWindowRefusal(failure)) throw failure;
	return await instead(
		`Outside the 24-hour window: the platform refused the ${kind} message ("${failure.message}")`,
	);
}

/**
 * The template fallback failed: the error keeps the template's failure (its type, HTTP code and outcome, so a lost
 * answer stays "may have been delivered") and says first why the template was sent (the free-form refusal, or the
 * check before sending), so both refusals are in front of the user.
 */
function bothRefusals(error: unknown, kind: SessionKind, reason: string): unknown {
	if (!(error instanceof NodeApiError) && !(error instanceof NodeOperationError)) return error;
	const templateText = error.message;
	const lost = outcomeOf(error) === 'unknown';
	error.message = `The template sent instead ${lost ? 'failed and may have been delivered' : 'failed too'}: "${templateText}". Before it: ${reason}`;
	const first = `First the ${kind} message: ${reason}. Then the template sent instead (Outside the 24-Hour Window → Send a Template Instead): "${templateText}".`;
	error.description = [first, error.description].filter(Boolean).join(' ');
	error.context = { ...error.context, outsideWindow: true, templateFallback: true };
	return error;
}
