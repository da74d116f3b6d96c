import type { ILoadOptionsFunctions, INodeListSearchResult, INodeProperties } from 'n8n-workflow';
import { matching } from '../parameters/matching';
import { recordOf, recordsOf } from '../parameters/values';
import { botSailorRequest } from '../http/transport';

/**
 * The WhatsApp Number field of every node (the action node's operations add where it is sent; the
 * triggers read it): picked from the account's numbers (searchWhatsAppNumbers), or typed as an ID.
 */
export function whatsAppNumberLocator(): INodeProperties {
	return {
		displayName: 'WhatsApp Number',
		name: 'phoneNumberId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The connected WhatsApp business number to use',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchWhatsAppNumbers', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 104382179270221',
				hint: 'The phone number ID, as shown in Get Me → whatsapp_bots_details',
			},
		],
	};
}

/** The account's WhatsApp numbers, "number (business name)" → phone_number_id. */
export async function searchWhatsAppNumbers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const envelope = await botSailorRequest.call(this, '/user/myInfo');
	const bots = recordsOf(recordOf(envelope.message).whatsapp_bots_details);
	return matching(
		bots.map((bot) => ({
			name: `${bot.display_phone_number} (${bot.whatsapp_business_name})`,
			value: String(bot.phone_number_id),
		})),
		filter,
	);
}
