import { resource } from '../resource';
import { getMany } from './getMany';
import { triggerOperation } from './trigger';

export const botFlowDescription = resource('botFlow', [getMany, triggerOperation], {
	default: 'getMany',
});
