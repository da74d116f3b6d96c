import { inputs } from '../../../shared/parameters/inputs';
import type { OperationDescription } from '../resource';
import { whatsAppNumber } from '../common';
import { subscriberLocator, subscriberWrite } from '../shared/subscriber';
import { idList } from './fields';

export const addLabelsOperation: OperationDescription = {
	kind: 'write',
	toolDescription:
		'Add labels (tags) to a WhatsApp subscriber, to sort them for the team or for campaigns (e.g. an interest they mentioned). The labels are set in this tool. Sends nothing to them.',
	option: {
		name: 'Add Labels',
		value: 'addLabels',
		action: 'Add labels to a subscriber',
		routing: subscriberWrite('/whatsapp/subscriber/chat/assign-labels', {
			label_ids: inputs.idList.describe('Labels'),
		}),
	},
	fields: [whatsAppNumber(), subscriberLocator(), idList('label', { required: true })],
};
