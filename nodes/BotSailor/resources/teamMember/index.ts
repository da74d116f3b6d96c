import { resource } from '../resource';
import { teamMemberGetManyOperation } from './getMany';

export const teamMemberDescription = resource('teamMember', [teamMemberGetManyOperation], {
	default: 'getMany',
});
