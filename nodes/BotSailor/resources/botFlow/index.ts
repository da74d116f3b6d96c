import { resource } from '../resource';
import { botFlowGetManyOperation } from './getMany';
import { triggerOperation } from './trigger';

export const botFlowDescription = resource('botFlow', [botFlowGetManyOperation, triggerOperation], {
	default: 'getMany',
});
