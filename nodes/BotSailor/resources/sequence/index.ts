import { resource } from '../resource';
import { getManyOperation } from './getMany';

export const sequenceDescription = resource('sequence', [getManyOperation], { default: 'getMany' });
