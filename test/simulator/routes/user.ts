import { z } from 'zod';
import { ok, type Route } from '../route';

/** The spec's "User group". */
export const userRoutes: Route[] = [
	{
		path: '/user/myInfo',
		params: z.object({}),
		handle: ({ state }) =>
			ok({
				message: {
					...state.me,
					bot_subscriber_data: { limit: String(state.subscriberLimit), count: String(state.subscribers.length) },
					whatsapp_bots_details: state.bots.map(({ display_phone_number, phone_number_id, whatsapp_business_account_id, whatsapp_business_name }) => ({
						display_phone_number, phone_number_id, whatsapp_business_account_id, whatsapp_business_name,
					})),
				},
			}),
	},
];
