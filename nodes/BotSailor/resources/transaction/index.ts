import { resource } from '../resource';
import { getManyOperation } from './getMany';

export const transactionDescription = resource('transaction', [getManyOperation], {
	default: 'getMany',
});
