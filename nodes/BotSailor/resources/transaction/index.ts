import { resource } from '../resource';
import { transactionGetManyOperation } from './getMany';

export const transactionDescription = resource('transaction', [transactionGetManyOperation], {
	default: 'getMany',
});
