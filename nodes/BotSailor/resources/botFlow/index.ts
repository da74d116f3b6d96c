import { resource } from '../resource';
import { getManyOperation } from './getMany';
import { triggerOperation } from './trigger';

export const botFlowDescription = resource('botFlow', [getManyOperation, triggerOperation], {
	default: 'getMany',
});
