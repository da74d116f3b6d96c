import { resource } from '../resource';
import { getManyOperation } from './getMany';

export const customFieldDescription = resource('customField', [getManyOperation], {
	default: 'getMany',
});
