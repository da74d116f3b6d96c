import { inputs } from '../../../shared/inputs';
import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator, subscriberWrite } from '../shared/subscriber';
import { idList } from './fields';

export const addToSequences: OperationDescription = {
	kind: 'write',
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
