import { inputs } from '../../../shared/parameters/inputs';
import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator, subscriberWrite } from '../shared/subscriber';
import { idList } from './fields';

export const addToSequencesOperation: OperationDescription = {
	kind: 'write',
	toolDescription:
		'Add a WhatsApp subscriber to sequence campaigns: scheduled follow-up messages the platform will send them over the next days. Use it only when the subscriber agreed to receive them.',
	option: {
		name: 'Add to Sequences',
		value: 'addToSequences',
		action: 'Add a subscriber to sequences',
		routing: subscriberWrite('/whatsapp/subscriber/chat/assign-sequence', {
			sequence_ids: inputs.idList.describe('Sequences'),
		}),
	},
	fields: [whatsAppNumber(), subscriberLocator(), idList('sequence', { required: true })],
};
