import { resource } from '../resource';
import { addLabels } from './addLabels';
import { addToSequences } from './addToSequences';
import { assignToTeamMember } from './assignToTeamMember';
import { create } from './create';
import { deleteOperation } from './delete';
import { get } from './get';
import { getMany } from './getMany';
import { getWindowStatus } from './getWindowStatus';
import { handOverOperation } from './handOver';
import { optInOperation } from './optIn';
import { optOutOperation } from './optOut';
import { removeFromSequences } from './removeFromSequences';
import { removeLabels } from './removeLabels';
import { resetInputFlow } from './resetInputFlow';
import { setConversationStatus } from './setConversationStatus';
import { setCustomFields } from './setCustomFields';
import { update } from './update';

export const subscriberDescription = resource(
	'subscriber',
	[
		addLabels,
		addToSequences,
		assignToTeamMember,
		create,
		deleteOperation,
		get,
		getMany,
		getWindowStatus,
		handOverOperation,
		optInOperation,
		optOutOperation,
		removeFromSequences,
		removeLabels,
		resetInputFlow,
		setConversationStatus,
		setCustomFields,
		update,
	],
	{ default: 'get' },
);
