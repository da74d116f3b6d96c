import { resource } from '../resource';
import { sequenceGetManyOperation } from './getMany';

export const sequenceDescription = resource('sequence', [sequenceGetManyOperation], {
	default: 'getMany',
});
