import { inputs, validateBody, z } from '../../../shared/inputs';
import { unwrap } from '../../shared/output';
import { whatsAppNumber } from '../common';
import type { OperationDescription } from '../resource';

export const getMany: OperationDescription = {
	kind: 'read',
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many bot flows',
		description: 'Get the bot flows of a WhatsApp number',
		routing: {
			request: { url: '/whatsapp/get/bot-flow-list' },
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
	fields: [whatsAppNumber()],
};
