import { inputs, validateBody, z } from '../../../shared/inputs';
import { unwrap } from '../../shared/output';
import { paginate } from '../../shared/pagination';
import { decodeJsonOption, recipient, returnAllAndLimit, whatsAppNumber } from '../common';
import type { OperationDescription } from '../resource';

export const getMany: OperationDescription = {
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many messages',
		description: 'Get the conversation with a subscriber, newest first',
		routing: {
			request: { url: '/whatsapp/get/conversation' },
			send: {
				preSend: [
					validateBody(() =>
						z.object({
							phone_number_id: inputs.required.describe('WhatsApp Number'),
							phone_number: inputs.phoneNumber.describe('Subscriber'),
						}),
					),
				],
			},
			operations: { pagination: paginate(50, { unpaginatedInEarlierForm: true }) },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [whatsAppNumber(), recipient(), ...returnAllAndLimit(), decodeJsonOption()],
};
