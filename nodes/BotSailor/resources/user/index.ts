import { resource } from '../resource';
import { create } from './create';
import { createWithLoginLink } from './createWithLoginLink';
import { get } from './get';
import { getLoginLink } from './getLoginLink';
import { getMany } from './getMany';
import { getMe } from './getMe';
import { getUsageLog } from './getUsageLog';
import { logOut } from './logOut';
import { update } from './update';

export const userDescription = resource(
	'user',
	[create, createWithLoginLink, get, getLoginLink, getMany, getMe, getUsageLog, logOut, update],
	{ default: 'getMe' },
);
