/**
 * The test data the tests name again and again, in one place: the simulator's seeded WhatsApp numbers and
 * subscribers (test/simulator/seed.ts) and the resource-locator values the node's fields take.
 */
import { STORY_SUBSCRIBERS } from '../simulator/seed';

/** The seeded account's first WhatsApp number (phone_number_id), "Sunrise Bakery": most tests run on it. */
export const NUMBER = '104382179270221';
/** The seeded account's second WhatsApp number, "Sunrise Bakery UK" (its subscribers are 447700…). */
export const OTHER_NUMBER = '104382179270999';

/** The first seeded subscriber on NUMBER (a seed name drawn at random). */
export const PHONE = '15550100000';
/** The subscribers the examples' sample data talks about, seeded on NUMBER under these names (STORY_SUBSCRIBERS). */
export const AVA = '15550100001';
export const BEN = '15550100002';
export const CHLOE = '15550100003';

/** The phone number of the seeded subscriber at `index` (0 to subscribersPerNumber - 1) on NUMBER. */
export const seededPhone = (index: number) => `15550${String(100000 + index).slice(-6)}`;

/** A resource locator's value, as the editor stores it: `{ __rl: true, mode, value }`. */
export const rl = (value: string, mode = 'list') => ({ __rl: true, mode, value });
/** A resource locator picked From List. */
export const fromList = (value: string | number) => rl(String(value), 'list');
/** A resource locator typed By ID. */
export const byId = (value: string | number) => rl(String(value), 'id');
/** A resource locator typed By Phone Number (the Subscriber fields). */
export const byPhone = (value: string) => rl(value, 'phone');

/** The WhatsApp Number field's value for NUMBER, picked From List. */
export const numberFromList = fromList(NUMBER);
/** The WhatsApp Number field's value for NUMBER, typed By ID (what the triggers' tests use). */
export const numberById = byId(NUMBER);
/** The WhatsApp Number field on NUMBER, From List: the parameters of every operation on one number. */
export const onNumber = { phoneNumberId: numberFromList };
/** The WhatsApp Number and Subscriber fields of the subscriber operations, on NUMBER and PHONE, From List. */
export const onSubscriber = { ...onNumber, subscriber: fromList(PHONE) };

// The names above must match the seed (a changed seed fails here, not in thirty files).
if (
	STORY_SUBSCRIBERS[AVA]?.[0] !== 'Ava' ||
	STORY_SUBSCRIBERS[BEN]?.[0] !== 'Ben' ||
	STORY_SUBSCRIBERS[CHLOE]?.[0] !== 'Chloe'
)
	throw new Error('test/harness/params.ts: the story subscribers no longer match the seed');
