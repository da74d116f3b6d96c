import { subscriberKeys, validateBody, z } from '../../../shared/parameters/inputs';
import { unwrap } from '../../running/outputItems';
import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator } from '../shared/subscriber';

export const noteGetManyOperation: OperationDescription = {
	kind: 'read',
	toolDescription:
		'Read the internal notes the team kept on a WhatsApp subscriber (who wrote them, when): context the conversation does not show.',
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many notes of a subscriber',
		routing: {
			request: { url: '/whatsapp/subscriber/chat/get-notes' },
			send: { preSend: [validateBody(() => z.object(subscriberKeys))] },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [whatsAppNumber(), subscriberLocator()],
};
