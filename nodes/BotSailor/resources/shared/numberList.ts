import type { INodePropertyRouting } from 'n8n-workflow';
import { inputs, validateBody, z } from '../../../shared/parameters/inputs';
import { unwrap } from '../../running/outputItems';
import { decodeJsonOption, whatsAppNumber } from '../common';
import type { OperationDescription } from '../resource';

/** What a list of one WhatsApp number's things says of itself: its action and description, where it is read, and whether its entries carry JSON text. */
interface NumberList {
	action: string;
	description: string;
	routing: INodePropertyRouting;
	decodeJson?: boolean;
	toolDescription?: string;
}

/**
 * Get Many of a list kept per WhatsApp number (bot flows, post-backs, sequences, templates): the number
 * chosen and checked, the list read from `message`. `decodeJson` adds the Decode JSON Fields option, for
 * lists whose entries carry JSON text.
 */
export function numberList({
	action,
	description,
	routing,
	decodeJson = false,
	toolDescription,
}: NumberList): OperationDescription {
	return {
		// A list only reads: its requests are retried (readPaths.ts).
		kind: 'read',
		toolDescription,
		option: {
			name: 'Get Many',
			value: 'getMany',
			action,
			description,
			routing: {
				...routing,
				send: {
					preSend: [
						validateBody(() =>
							z.object({ phone_number_id: inputs.required.describe('WhatsApp Number') }),
						),
					],
				},
				output: { postReceive: [unwrap('message')] },
			},
		},
		fields: decodeJson ? [whatsAppNumber(), decodeJsonOption()] : [whatsAppNumber()],
	};
}
