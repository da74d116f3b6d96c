import type { INodeType } from 'n8n-workflow';
import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';
import { askAndWait } from './execute';

export { sendAndWaitWebhook, sendAndWaitWebhooks } from './webhook';

/** The node's customOperations with Message → Send and Wait for Response added (n8n's WhatsApp node does the same). */
export function withSendAndWait(
	custom: NonNullable<INodeType['customOperations']>,
): NonNullable<INodeType['customOperations']> {
	return {
		...custom,
		message: { ...custom.message, [SEND_AND_WAIT_OPERATION]: askAndWait },
	};
}
