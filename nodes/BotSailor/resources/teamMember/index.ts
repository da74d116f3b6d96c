import { resource } from '../resource';
import { getManyOperation } from './getMany';

export const teamMemberDescription = resource('teamMember', [getManyOperation], {
	default: 'getMany',
});
