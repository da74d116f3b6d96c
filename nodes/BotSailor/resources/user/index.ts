import { resource } from '../resource';
import { createOperation } from './create';
import { createWithLoginLinkOperation } from './createWithLoginLink';
import { getOperation } from './get';
import { getLoginLinkOperation } from './getLoginLink';
import { getManyOperation } from './getMany';
import { getMeOperation } from './getMe';
import { getUsageLogOperation } from './getUsageLog';
import { logOutOperation } from './logOut';
import { updateOperation } from './update';

export const userDescription = resource(
	'user',
	[
		createOperation,
		createWithLoginLinkOperation,
		getOperation,
		getLoginLinkOperation,
		getManyOperation,
		getMeOperation,
		getUsageLogOperation,
		logOutOperation,
		updateOperation,
	],
	{ default: 'getMe' },
);
