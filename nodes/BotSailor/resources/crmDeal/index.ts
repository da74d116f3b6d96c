import { resource } from '../resource';
import { crmDealGetOperation } from './get';
import { crmDealUpdateOperation } from './update';

export const crmDealDescription = resource(
	'crmDeal',
	[crmDealGetOperation, crmDealUpdateOperation],
	{
		default: 'get',
	},
);
