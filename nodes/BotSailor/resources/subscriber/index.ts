import { resource } from '../resource';
import { addLabelsOperation } from './addLabels';
import { addToSequencesOperation } from './addToSequences';
import { assignToTeamMemberOperation } from './assignToTeamMember';
import { subscriberCreateOperation } from './create';
import { subscriberDeleteOperation } from './delete';
import { subscriberGetOperation } from './get';
import { subscriberGetManyOperation } from './getMany';
import { getWindowStatusOperation } from './getWindowStatus';
import { handOverOperation } from './handOver';
import { optInOperation } from './optIn';
import { optOutOperation } from './optOut';
import { removeFromSequencesOperation } from './removeFromSequences';
import { removeLabelsOperation } from './removeLabels';
import { resetInputFlowOperation } from './resetInputFlow';
import { setConversationStatusOperation } from './setConversationStatus';
import { setCustomFieldsOperation } from './setCustomFields';
import { subscriberUpdateOperation } from './update';

export const subscriberDescription = resource(
	'subscriber',
	[
		addLabelsOperation,
		addToSequencesOperation,
		assignToTeamMemberOperation,
		subscriberCreateOperation,
		subscriberDeleteOperation,
		subscriberGetOperation,
		subscriberGetManyOperation,
		getWindowStatusOperation,
		handOverOperation,
		optInOperation,
		optOutOperation,
		removeFromSequencesOperation,
		removeLabelsOperation,
		resetInputFlowOperation,
		setConversationStatusOperation,
		setCustomFieldsOperation,
		subscriberUpdateOperation,
	],
	{ default: 'get' },
);
