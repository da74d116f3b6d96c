import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';
import { QUESTION_MARK_LABEL } from '../../shared/conversation/answerBinding';
import { listRecords } from '../../shared/http/envelope';
import { sendRequest, usesEarlierForm } from '../../shared/http/transport';
import { errorMessage } from '../../shared/parameters/values';
import { requestTemplate, type RequestOptionsParameter } from '../running/requestOptions';
import { labelNamed } from '../running/steps';

/**
 * The mark a chat question leaves on each recipient before it is sent (issue 54 point 1): the platform's label
 * QUESTION_MARK_LABEL, which its incoming-message webhook lists in `label_names`. The Webhook Trigger reads a
 * conversation only for a message of a marked subscriber (shared/conversation/answerTaking.ts `mayAnswer`), so an
 * ordinary message costs the platform nothing. The label is created once per account (the platform answers without
 * its id: the list is read again). It stays on the subscriber: a later message of theirs costs one read.
 */
export async function markRecipients(
	context: IExecuteFunctions,
	phoneNumberId: string,
	phones: string[],
): Promise<{ marked: string[]; unmarked: IDataObject[] }> {
	const node = context.getNode();
	const options = context.getNodeParameter('requestOptions', 0, {}) as RequestOptionsParameter;
	const call = async (url: string, body: IDataObject) =>
		await sendRequest.call(context, { ...requestTemplate(node, url, options), body }, 0);
	const earlier = await usesEarlierForm(context);
	const labels = async () =>
		listRecords(
			earlier
				? await call('/whatsapp/label/list', { phone_number_id: phoneNumberId })
				: await call('/label/list', {}),
		) ?? [];
	const step = async <T>(what: string, action: () => Promise<T>): Promise<T> => {
		try {
			return await action();
		} catch (error) {
			throw new NodeOperationError(
				node,
				`Send and Wait could not ${what}: ${errorMessage(error)}`,
				{
					description: `With Answer In: WhatsApp Chat the question marks each recipient with the label "${QUESTION_MARK_LABEL}" before it is sent, so that the BotSailor Webhook Trigger knows which messages may answer it. Nothing was sent, and the workflow does not wait.`,
					itemIndex: 0,
				},
			);
		}
	};
	let label = labelNamed(await step('read the labels', labels), QUESTION_MARK_LABEL);
	if (!label) {
		await step('create the label', async () =>
			earlier
				? await call('/whatsapp/label/create', {
						phone_number_id: phoneNumberId,
						label_name: QUESTION_MARK_LABEL,
					})
				: await call('/label/create', { label_name: QUESTION_MARK_LABEL }),
		);
		label = labelNamed(await step('read the labels', labels), QUESTION_MARK_LABEL);
	}
	const id = label?.id;
	if (id === undefined || id === null)
		await step('find the label', async () => {
			throw new Error(`the label "${QUESTION_MARK_LABEL}" is not in the platform's list`);
		});
	const marked: string[] = [];
	const unmarked: IDataObject[] = [];
	for (const [index, phone] of phones.entries()) {
		try {
			await call('/whatsapp/subscriber/chat/assign-labels', {
				phone_number_id: phoneNumberId,
				phone_number: phone,
				label_ids: String(id),
			});
			marked.push(phone);
		} catch (error) {
			// The first recipient must be marked (else nothing waits); another is reported as not asked.
			if (index === 0) await step('mark the subscriber', async () => await Promise.reject(error));
			unmarked.push({ phone_number: phone, error: errorMessage(error) });
		}
	}
	return { marked, unmarked };
}
