import { resource } from '../resource';
import { downloadMediaOperation } from './downloadMedia';
import { getDeliveryReportOperation } from './getDeliveryReport';
import { messageGetManyOperation } from './getMany';
import { messageGetStatusOperation } from './getStatus';
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
		messageGetManyOperation,
		messageGetStatusOperation,
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
