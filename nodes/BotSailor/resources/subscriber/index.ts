import { resource } from '../resource';
import { addLabelsOperation } from './addLabels';
import { addToSequencesOperation } from './addToSequences';
import { assignToTeamMemberOperation } from './assignToTeamMember';
import { createOperation } from './create';
import { deleteOperation } from './delete';
import { getOperation } from './get';
import { getManyOperation } from './getMany';
import { getWindowStatusOperation } from './getWindowStatus';
import { handOverOperation } from './handOver';
import { optInOperation } from './optIn';
import { optOutOperation } from './optOut';
import { removeFromSequencesOperation } from './removeFromSequences';
import { removeLabelsOperation } from './removeLabels';
import { resetInputFlowOperation } from './resetInputFlow';
import { setConversationStatusOperation } from './setConversationStatus';
import { setCustomFieldsOperation } from './setCustomFields';
import { updateOperation } from './update';

export const subscriberDescription = resource(
	'subscriber',
	[
		addLabelsOperation,
		addToSequencesOperation,
		assignToTeamMemberOperation,
		createOperation,
		deleteOperation,
		getOperation,
		getManyOperation,
		getWindowStatusOperation,
		handOverOperation,
		optInOperation,
		optOutOperation,
		removeFromSequencesOperation,
		removeLabelsOperation,
		resetInputFlowOperation,
		setConversationStatusOperation,
		setCustomFieldsOperation,
		updateOperation,
	],
	{ default: 'get' },
);
