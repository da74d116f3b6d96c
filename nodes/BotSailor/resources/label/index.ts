import { resource } from '../resource';
import { labelCreateOperation } from './create';
import { labelGetManyOperation } from './getMany';

export const labelDescription = resource('label', [labelCreateOperation, labelGetManyOperation], {
	default: 'getMany',
});
