import { resource } from '../resource';
import { connect } from './connect';

export const accountDescription = resource('account', [connect], { default: 'connect' });
