import { searchWhatsAppNumbers } from '../../../shared/whatsapp/whatsAppNumber';
import { messagingSearch } from './messaging';
import { subscriberSearch } from './subscribers';
import { userGroupSearch } from './userGroups';

export const listSearch = {
	...messagingSearch,
	...subscriberSearch,
	...userGroupSearch,
	searchWhatsAppNumbers,
};
