import type { SendDefinition } from '../shared/sendDefinition';
import { triggerBotFlow } from './botFlow/trigger';
import { sendButtons } from './message/sendButtons';
import { sendMedia } from './message/sendMedia';
import { sendTemplate } from './message/sendTemplate';
import { sendText } from './message/sendText';
import { sendBroadcast } from './template/sendBroadcast';

/** The operations that message subscribers: each item is delivered at most once (shared/bulkSend.ts, shared/delivery.ts). */
export const SENDS: readonly SendDefinition[] = [
	sendText,
	sendTemplate,
	sendButtons,
	sendMedia,
	sendBroadcast,
	triggerBotFlow,
];
