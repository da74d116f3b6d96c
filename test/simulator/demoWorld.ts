/**
 * The demo's world (npm run demo): the seed on the real clock with WhatsApp's 24-hour window enforced, some
 * customers who wrote within the last 24 hours (free-form sends reach them) and some who did not (only templates
 * do), so that Get Window Status and the window's choices can be seen.
 */
import { addMessage, controlRoutes } from './control';
import type { SeedOptions } from './seed';
import { insideWindow, lastIncomingAt, type Bot, type SimState } from './state';

/** The seed options of the demo: the real clock, and customers with names of their own. */
export const DEMO_SEED: SeedOptions = { realClock: true, distinctNames: true };

export interface DemoCustomer {
	phone_number: string;
	name: string;
	/** When they last wrote, in hours before the start. */
	hoursAgo: number;
}

/** Who wrote when (the first WhatsApp number): the story customers inside the window, the next one outside. */
const LAST_WROTE: Array<[phoneNumber: string, hoursAgo: number]> = [
	['15550100001', 0.1],
	['15550100002', 2],
	['15550100003', 5],
	['15550100004', 30],
	['15550100005', 72],
];

/**
 * The demo's third WhatsApp number, where the AI-draft example runs (examples/ai-draft-approval.json): the demo's
 * alone, as the seed (every test's world) keeps two numbers.
 */
export const DRAFT_NUMBER: Readonly<Bot> = Object.freeze({
	phone_number_id: '104382179270333',
	display_phone_number: '+1 555 010 3000',
	whatsapp_business_account_id: '209991122333333',
	whatsapp_business_name: 'Sunrise Bakery Cakes',
	whatsapp_bot_id: 13,
	user_id: 1,
});

/** The manager who approves the drafts: the example's +1 555 010 0002 (Ben, the owner of the order approval). */
export const DRAFT_MANAGER = '15550100002';

/**
 * Who is on the draft number when it is added: the manager, inside the window (the question is free-form); two of
 * the story's customers, who wrote days ago (their own message opens the window for the reply).
 */
const DRAFT_PEOPLE: Array<
	[phoneNumber: string, name: string, hoursAgo: number, wrote: string, answer?: string]
> = [
	[DRAFT_MANAGER, 'Ben Garcia', 6, 'Ben here: send me the AI drafts to approve, please.'],
	['15550100001', 'Ava Smith', 96, 'Do you make cakes to order?', 'We do, from 25 USD.'],
	['15550100003', 'Chloe Khan', 120, 'Do you deliver?', 'Yes, within 5 km.'],
];

/** Moves a subscriber's conversation so that their last own message is `hoursAgo` hours old. */
function wroteHoursAgo(
	state: SimState,
	phoneNumberId: string,
	phoneNumber: string,
	hoursAgo: number,
) {
	controlRoutes.window({
		state,
		input: { phone_number_id: phoneNumberId, phone_number: phoneNumber, hours_ago: hoursAgo },
	} as Parameters<(typeof controlRoutes)['window']>[0]);
}

/** A subscriber as the ready message names them, with when they last wrote (Infinity: never). */
function demoCustomer(state: SimState, phoneNumberId: string, phoneNumber: string): DemoCustomer {
	const subscriber = state.subscriber(phoneNumberId, phoneNumber)!;
	const last = lastIncomingAt(state, phoneNumberId, phoneNumber);
	return {
		phone_number: phoneNumber,
		name: `${subscriber.first_name} ${subscriber.last_name}`,
		hoursAgo:
			last === undefined
				? Infinity
				: Math.round((state.clock - Date.parse(`${last.replace(' ', 'T')}Z`)) / 360_000) / 10,
	};
}

/** Adds the draft number and its people to a world that lacks it (a fresh one, or one kept from before it existed). */
function addDraftNumber(state: SimState): void {
	if (state.bot(DRAFT_NUMBER.phone_number_id)) return;
	state.bots.push({ ...DRAFT_NUMBER });
	const number = DRAFT_NUMBER.phone_number_id;
	for (const [phoneNumber, name, hoursAgo, wrote, answer] of DRAFT_PEOPLE) {
		const to = { phone_number_id: number, phone_number: phoneNumber, name };
		const first = addMessage(state, { ...to, text: wrote });
		if (answer) addMessage(state, { ...to, sender: 'bot', text: answer, status: 'read' });
		wroteHoursAgo(state, number, phoneNumber, hoursAgo);
		state.subscriber(number, phoneNumber)!.created_at = first.conversation_time;
	}
}

/**
 * Enforces the window and moves the customers' last messages; answers who is inside and who is outside. A world kept
 * from an earlier run (`kept`) is only described: its conversations stay as they were. Adds the draft number when the
 * world lacks it, and answers its manager and customers.
 */
export function prepareDemoWorld(
	state: SimState,
	{ kept = false } = {},
): {
	inside: DemoCustomer[];
	outside: DemoCustomer[];
	draft: { manager: DemoCustomer & { insideWindow: boolean }; customers: DemoCustomer[] };
} {
	state.sessionWindow = 'enforced';
	const numberId = state.bots[0].phone_number_id;
	const customers = LAST_WROTE.map(([phoneNumber, seededHoursAgo]) => {
		if (!kept) wroteHoursAgo(state, numberId, phoneNumber, seededHoursAgo);
		const customer = demoCustomer(state, numberId, phoneNumber);
		return kept ? customer : { ...customer, hoursAgo: seededHoursAgo };
	});
	addDraftNumber(state);
	const draftNumber = DRAFT_NUMBER.phone_number_id;
	return {
		inside: customers.filter((customer) => customer.hoursAgo < 24),
		outside: customers.filter((customer) => customer.hoursAgo >= 24),
		draft: {
			manager: {
				...demoCustomer(state, draftNumber, DRAFT_MANAGER),
				insideWindow: insideWindow(state, draftNumber, DRAFT_MANAGER),
			},
			customers: DRAFT_PEOPLE.filter(([phoneNumber]) => phoneNumber !== DRAFT_MANAGER).map(
				([phoneNumber]) => demoCustomer(state, draftNumber, phoneNumber),
			),
		},
	};
}
