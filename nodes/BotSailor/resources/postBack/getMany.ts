import { inputs, validateBody, z } from '../../../shared/inputs';
import { unwrap } from '../../shared/output';
import { decodeJsonOption, whatsAppNumber } from '../common';
import type { OperationDescription } from '../resource';

export const getMany: OperationDescription = {
	kind: 'read',
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many post backs',
		description: 'Get the post-backs (bot reply buttons and their replies) of a WhatsApp number',
		routing: {
			request: { url: '/whatsapp/get/post-back-list' },
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
	fields: [whatsAppNumber(), decodeJsonOption()],
};
