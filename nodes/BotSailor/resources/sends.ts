import type { SendDefinition } from '../sending/sendDefinition';
import { RESOURCES } from './index';

/**
 * The operations that message subscribers, read from the records (their `send`): each item is delivered at most
 * once (sending/bulkSend.ts, sending/delivery.ts).
 */
export const SENDS: readonly SendDefinition[] = RESOURCES.flatMap((resource) =>
	resource.operations.flatMap((operation) => (operation.send ? [operation.send] : [])),
);
