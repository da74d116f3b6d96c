import { resource } from '../resource';
import { downloadMediaOperation } from './downloadMedia';
import { getDeliveryReportOperation } from './getDeliveryReport';
import { getManyOperation } from './getMany';
import { getStatusOperation } from './getStatus';
import { getTranscriptOperation } from './getTranscript';
import { getUnansweredOperation } from './getUnanswered';
import { sendAndWaitOperation } from './sendAndWait';
import { sendButtonsOperation } from './sendButtons';
import { sendMediaOperation } from './sendMedia';
import { sendTemplateOperation } from './sendTemplate';
import { sendTextOperation } from './sendText';

export const messageDescription = resource(
	'message',
	[
		downloadMediaOperation,
		getDeliveryReportOperation,
		getManyOperation,
		getStatusOperation,
		getTranscriptOperation,
		getUnansweredOperation,
		sendAndWaitOperation,
		sendButtonsOperation,
		sendMediaOperation,
		sendTemplateOperation,
		sendTextOperation,
	],
	{ default: 'sendText' },
);
