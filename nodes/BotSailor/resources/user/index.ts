import { resource } from '../resource';
import { userCreateOperation } from './create';
import { createWithLoginLinkOperation } from './createWithLoginLink';
import { userGetOperation } from './get';
import { getLoginLinkOperation } from './getLoginLink';
import { userGetManyOperation } from './getMany';
import { getMeOperation } from './getMe';
import { getUsageLogOperation } from './getUsageLog';
import { logOutOperation } from './logOut';
import { userUpdateOperation } from './update';

export const userDescription = resource(
	'user',
	[
		userCreateOperation,
		createWithLoginLinkOperation,
		userGetOperation,
		getLoginLinkOperation,
		userGetManyOperation,
		getMeOperation,
		getUsageLogOperation,
		logOutOperation,
		userUpdateOperation,
	],
	{ default: 'getMe' },
);
