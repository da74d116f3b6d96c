import { inputs } from '../../../shared/parameters/inputs';
import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator, subscriberWrite } from '../shared/subscriber';
import { idList } from './fields';

export const removeFromSequencesOperation: OperationDescription = {
	kind: 'write',
	toolDescription:
		'Remove a WhatsApp subscriber from sequence campaigns, so the scheduled follow-ups stop. For a subscriber who wants no messages at all, use Opt Out instead.',
	option: {
		name: 'Remove From Sequences',
		value: 'removeFromSequences',
		action: 'Remove a subscriber from sequences',
		routing: subscriberWrite('/whatsapp/subscriber/chat/remove-sequence', {
			sequence_ids: inputs.idList.describe('Sequences'),
		}),
	},
	fields: [whatsAppNumber(), subscriberLocator(), idList('sequence', { required: true })],
};
