import { resource } from '../resource';
import { getMany } from './getMany';

export const teamMemberDescription = resource('teamMember', [getMany], { default: 'getMany' });
