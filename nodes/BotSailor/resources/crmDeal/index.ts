import { resource } from '../resource';
import { get } from './get';
import { update } from './update';

export const crmDealDescription = resource('crmDeal', [get, update], { default: 'get' });
