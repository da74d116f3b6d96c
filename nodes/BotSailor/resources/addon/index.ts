import { resource } from '../resource';
import { create } from './create';
import { getMany } from './getMany';
import { update } from './update';

export const addonDescription = resource('addon', [create, getMany, update], {
	default: 'getMany',
});
