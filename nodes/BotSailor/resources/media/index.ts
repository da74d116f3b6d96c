import { resource } from '../resource';
import { upload } from './upload';

export const mediaDescription = resource('media', [upload], { default: 'upload' });
