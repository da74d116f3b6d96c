import { resource } from '../resource';
import { customFieldGetManyOperation } from './getMany';

export const customFieldDescription = resource('customField', [customFieldGetManyOperation], {
	default: 'getMany',
});
