import { validateBody, z } from '../../../shared/parameters/inputs';
import { unwrap } from '../../running/outputItems';
import type { OperationDescription } from '../resource';
import { userLocator } from '../shared/userGroupLocators';
import { userRef } from '../shared/userGroupSchemas';

export const userGetOperation: OperationDescription = {
	kind: 'read',
	toolDescription: 'Get one platform user (reseller client) by ID or email.',
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get a user',
		description: 'Get one user by ID or email, with package, limits and WhatsApp numbers',
		routing: {
			request: { url: '/user/list' },
			send: { preSend: [validateBody(() => z.object({ id: userRef.describe('User') }))] },
			output: { postReceive: [unwrap('message')] },
		},
	},
	fields: [userLocator({ name: 'user', property: 'id', required: true })],
};
