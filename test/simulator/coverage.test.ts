import axios from 'axios';
import { allRoutes } from './routes';
import { useSimulator } from '../harness/simulatorFixture';

/**
 * Every path of the spec (../shared/spec/api.md), in its order: the simulator must serve each one. A new endpoint is one
 * line here (CONTRIBUTING.md): every count below is this list's length.
 */
const SPEC_PATHS = [
	'/user/myInfo',
	'/user/usage/log',
	'/user/list',
	'/user/team-member/list',
	'/user/create',
	'/user/update',
	'/user/package/list',
	'/user/module/list',
	'/user/addon/list',
	'/user/addon/create',
	'/user/addon/update',
	'/user/addon/assign',
	'/user/addon/assign/list',
	'/user/addon/assign/update',
	'/user/addon/assign/credits',
	'/addon/purchase/delete',
	'/user/get/direct-login-url',
	'/user/get/direct-login-url/only-new-users',
	'/user/logout',
	'/user/transaction/list',
	'/whatsapp/account/connect',
	'/whatsapp/send',
	'/whatsapp/send/template',
	'/whatsapp/send/interactive-buttons',
	'/whatsapp/send/file',
	'/whatsapp/upload/media',
	'/whatsapp/get/conversation',
	'/whatsapp/get/post-back-list',
	'/whatsapp/get/message-status',
	'/whatsapp/template/list',
	'/whatsapp/template/create',
	'/whatsapp/template/status',
	'/whatsapp/broadcast/template/send',
	'/whatsapp/get/bot-flow-list',
	'/whatsapp/trigger-bot',
	'/ai/get_response',
	'/whatsapp/subscriber/get',
	'/whatsapp/subscriber/list',
	'/whatsapp/subscriber/create',
	'/whatsapp/subscriber/update',
	'/whatsapp/subscriber/delete',
	'/whatsapp/subscriber/reset/user-input-flow',
	'/whatsapp/subscriber/chat/assign-to-team-member',
	'/whatsapp/subscriber/chat/mark-conversation',
	'/whatsapp/subscriber/chat/assign-custom-fields',
	'/whatsapp/subscriber/custom-fields/list',
	'/whatsapp/subscriber/chat/assign-labels',
	'/whatsapp/subscriber/chat/remove-labels',
	'/whatsapp/subscriber/sequence/list',
	'/whatsapp/subscriber/chat/assign-sequence',
	'/whatsapp/subscriber/chat/remove-sequence',
	'/whatsapp/subscriber/chat/add-notes',
	'/whatsapp/subscriber/chat/get-notes',
	'/whatsapp/subscriber/crm/get',
	'/whatsapp/subscriber/crm/update',
	'/label/list',
	'/whatsapp/label/list',
	'/label/create',
	'/whatsapp/label/create',
	'/whatsapp/catalog/list',
	'/whatsapp/catalog/sync',
	'/whatsapp/catalog/order/list',
	'/whatsapp/catalog/order/status-change',
];

const fx = useSimulator();
const call = (method: 'GET' | 'POST', path: string, token?: string) =>
	axios.request({
		method,
		url: `${fx.sim.url}/api/v1${path}`,
		maxRedirects: 0,
		validateStatus: () => true,
		...(method === 'GET'
			? { params: token ? { apiToken: token } : {} }
			: {
					data: token ? `apiToken=${token}` : '',
					headers: { 'content-type': 'application/x-www-form-urlencoded' },
				}),
	});

describe('simulator coverage of the spec', () => {
	it(`has a route for every one of the spec's ${SPEC_PATHS.length} paths, and no other`, () => {
		expect(new Set(SPEC_PATHS).size).toBe(SPEC_PATHS.length);
		expect(allRoutes.map((route) => route.path).sort()).toEqual([...SPEC_PATHS].sort());
	});

	it.each(SPEC_PATHS)(
		'%s: its methods; missing token → 302 to the login page; wrong token → 401 JSON',
		async (path) => {
			// Upload (multipart) and template create (JSON body) are POST only; every other path takes both methods.
			const methods = allRoutes.find((route) => route.path === path)?.methods ?? ['GET', 'POST'];
			for (const method of methods) {
				const missing = await call(method, path);
				expect(missing.status).toBe(302);
				expect(missing.headers.location).toBe('/login');
				const wrong = await call(method, path, 'WRONG');
				expect(wrong.status).toBe(401);
				expect(wrong.data).toEqual({ status: '0', message: 'Unauthenticated.' });
				// With the right token and no parameters: an envelope (success, or status "0" naming a missing field), never 404/405.
				const right = await call(method, path, fx.sim.token);
				expect(right.status).toBe(200);
				expect(['1', '0', true, false]).toContain(right.data.status);
			}
		},
	);
});
