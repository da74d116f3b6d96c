import { resource } from '../resource';
import { uploadOperation } from './upload';

export const mediaDescription = resource('media', [uploadOperation], { default: 'upload' });
