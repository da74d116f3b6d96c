import { inputs } from '../../../shared/parameters/inputs';
import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator, subscriberWrite } from '../shared/subscriber';
import { idList } from './fields';

export const removeLabelsOperation: OperationDescription = {
	kind: 'write',
	toolDescription:
		'Remove labels (tags) from a WhatsApp subscriber. The labels are set in this tool. Sends nothing to them.',
	option: {
		name: 'Remove Labels',
		value: 'removeLabels',
		action: 'Remove labels from a subscriber',
		routing: subscriberWrite('/whatsapp/subscriber/chat/remove-labels', {
			label_ids: inputs.idList.describe('Labels'),
		}),
	},
	fields: [whatsAppNumber(), subscriberLocator(), idList('label', { required: true })],
};
