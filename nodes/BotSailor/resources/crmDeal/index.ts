import { resource } from '../resource';
import { getOperation } from './get';
import { updateOperation } from './update';

export const crmDealDescription = resource('crmDeal', [getOperation, updateOperation], {
	default: 'get',
});
