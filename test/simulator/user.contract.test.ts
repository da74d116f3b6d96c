import { useContractSimulator } from './contractClient';

const { context, call } = useContractSimulator({
	subscribersPerNumber: 5,
	messagesPerSubscriber: 1,
});

const both = ['GET', 'POST'] as const;
const addonBase = {
	addon_name: 'A',
	addon_description: 'D',
	price: '1.5',
	validity: '1',
	validity_type: 'M',
	addon_type: 'one-time',
	extend_value: '10',
	variation_extend_value: '[]',
	variation_price: '[]',
};

describe('user group contract', () => {
	it.each(both)('usage log and team members (%s)', async (method) => {
		const log = await call('/user/usage/log', {}, method);
		expect(log).toMatchObject({
			status: '1',
			message: { package_name: 'Agency', total_modules: 7 },
		});
		expect(log.message.modules[0]).toEqual({ module_name: 'Connect Account', limit: 5, used: 0 });
		expect(await call('/user/team-member/list', {}, method)).toMatchObject({
			status: '1',
			message: [{ id: 501, role: 'Support Agent' }, { id: 502 }],
		});
		context.sim.state.teamMembers = [];
		expect(await call('/user/team-member/list', {}, method)).toEqual({
			status: '0',
			message: 'No team member found',
		});
	});

	it.each(both)(
		'user list pages by page number with nextOffset; single user by id or email (%s)',
		async (method) => {
			const first = await call('/user/list', { limit: '5' }, method);
			expect(first.message).toHaveLength(5);
			expect(first.nextOffset).toBe(2);
			expect(Object.keys(first.message[0]).sort()).toEqual([
				'created_at',
				'email',
				'expired_date',
				'last_login_at',
				'last_login_ip',
				'mobile',
				'name',
				'package_name',
				'user_id',
			]);
			const last = await call('/user/list', { limit: '5', offset: '3' }, method);
			expect(last.message.map((user: { user_id: number }) => user.user_id)).toEqual([110, 111]);
			expect(last.nextOffset).toBeUndefined();
			expect((await call('/user/list', { limit: '5000' }, method)).message).toHaveLength(12);
			expect((await call('/user/list', { id: '101' }, method)).message).toMatchObject({
				user_id: 101,
				package_id: 1,
				message_credit_data: { limit: 'unlimited' },
			});
			expect(
				(await call('/user/list', { id: 'client1@agency.example' }, method)).message.user_id,
			).toBe(100);
			expect(await call('/user/list', { id: '42' }, method)).toEqual({
				status: '0',
				message: 'No user found',
			});
		},
	);

	it.each(both)(
		'user create answers under `mesasge` with the id; update changes status; subscriber limit (%s)',
		async (method) => {
			const created = await call(
				'/user/create',
				{
					name: 'N',
					email: 'n@example.com',
					password: 'p',
					package_id: '1',
					expired_date: '2026-01-01',
				},
				method,
			);
			expect(created).toEqual({
				status: '1',
				mesasge: 'User Created Successfully.',
				id: expect.any(Number),
			});
			expect(
				await call(
					'/user/update',
					{ id: String(created.id), status: '0', reset_ai_token_usage: '1' },
					method,
				),
			).toEqual({ status: '1', message: 'User Updated Successfully.' });
			expect(context.sim.state.users.at(-1)?.status).toBe('0');
			expect(await call('/user/update', { id: 'nobody@example.com' }, method)).toEqual({
				status: '0',
				message: 'No user found',
			});
			expect(
				await call(
					'/user/create',
					{ name: 'N', email: 'bad', password: 'p', package_id: '1', expired_date: '2026-01-01' },
					method,
				),
			).toMatchObject({ status: '0' });
			expect(
				await call(
					'/user/create',
					{ name: 'N', email: 'm@example.com', password: 'p', package_id: '1' },
					method,
				),
			).toEqual({ status: '0', message: 'The expired_date field is required.' });
			context.sim.state.subscriberLimit = 2;
			const limit = {
				status: '0',
				message: 'Subscriber limit has been exceeded. You cannot have more subscribers.',
			};
			expect(
				await call(
					'/user/create',
					{
						name: 'N',
						email: 'o@example.com',
						password: 'p',
						package_id: '1',
						expired_date: '2026-01-01',
					},
					method,
				),
			).toEqual(limit);
			expect(await call('/user/update', { id: '100', name: 'X' }, method)).toEqual(limit);
		},
	);

	it.each(both)('packages filter by type; modules and addons list (%s)', async (method) => {
		expect((await call('/user/package/list', {}, method)).message).toHaveLength(3);
		expect(
			(await call('/user/package/list', { package_type: 'subscription' }, method)).message,
		).toHaveLength(2);
		expect((await call('/user/package/list', { package_type: 'nope' }, method)).status).toBe('0');
		expect((await call('/user/module/list', {}, method)).message).toHaveLength(43);
		const addons = await call('/user/addon/list', {}, method);
		expect(addons.message[0]).not.toHaveProperty('module_id');
		expect(typeof addons.message[0].product_data).toBe('string');
	});

	it.each(both)('addon create and update with parallel variation arrays (%s)', async (method) => {
		const variations = {
			variation_name: '["S"]',
			variation_validity: '["1"]',
			variation_validity_type: '["W"]',
			variation_extend_value: '[5]',
			variation_price: '[2]',
		};
		expect(
			await call(
				'/user/addon/create',
				{ ...addonBase, module_id: '4', access_type: 'extend', ...variations },
				method,
			),
		).toEqual({ status: '1', message: 'Addon has been saved successfully..' });
		const addon = context.sim.state.addons.at(-1);
		expect(JSON.parse(String(addon?.variation_data))).toEqual([
			{ name: 'S', validity: '1', validity_type: 'W', extend_value: '5', price: '2' },
		]);
		expect(
			await call(
				'/user/addon/create',
				{ ...addonBase, module_id: '4', ...variations, variation_validity_type: '["Q"]' },
				method,
			),
		).toMatchObject({ status: '0' });
		expect(
			await call(
				'/user/addon/create',
				{ ...addonBase, module_id: '4', variation_price: '[1,2]', variation_extend_value: '[1]' },
				method,
			),
		).toMatchObject({ status: '0' });
		expect(
			await call(
				'/user/addon/update',
				{
					id: String(addon?.id),
					addon_name: 'B',
					variation_extend_value: '[]',
					variation_price: '[]',
				},
				method,
			),
		).toEqual({ status: '1', message: 'Addon has been saved successfully.' });
		expect(addon).toMatchObject({ addon_name: 'B', variation_data: null });
		expect(
			await call(
				'/user/addon/update',
				{
					id: String(addon?.id),
					addon_name: 'B',
					module_id: '4',
					variation_extend_value: '[]',
					variation_price: '[]',
				},
				method,
			),
		).toEqual({ status: '0', message: 'Unknown parameter: module_id.' });
	});

	it.each(both)('assign, list, update (unlimited) and delete purchases (%s)', async (method) => {
		expect(
			await call(
				'/user/addon/assign',
				{ user_id: '101', addon_id: '1-0', expired_date: '2026-05-05', status: '1' },
				method,
			),
		).toEqual({ status: '1', message: 'Addon has been assign successfully.' });
		expect(
			(
				await call(
					'/user/addon/assign',
					{ user_id: '101', addon_id: '1-5', expired_date: '2026-05-05' },
					method,
				)
			).status,
		).toBe('0');
		const list = await call('/user/addon/assign/list', { user_id: '101' }, method);
		expect(list.message).toHaveLength(2);
		expect(list.message[0]).not.toHaveProperty('used');
		const paged = await call('/user/addon/assign/list', { limit: '3', offset: '3' }, method);
		expect(paged.message).toHaveLength(3);
		expect(paged.nextOffset).toBeUndefined();
		expect((await call('/user/addon/assign/list', { limit: '3' }, method)).nextOffset).toBe(2);
		expect(
			await call('/user/addon/assign/update', { id: '901', expired_date: '', status: '0' }, method),
		).toEqual({ status: '1', message: 'Addon purchase updated successfully.' });
		expect(context.sim.state.purchases.find((entry) => entry.id === 901)).toMatchObject({
			expired_date: null,
			status: '0',
		});
		expect(await call('/user/addon/assign/update', { id: '1' }, method)).toEqual({
			status: '0',
			message: 'Addon purchase not found.',
		});
		expect(await call('/addon/purchase/delete', { id: '907' }, method)).toMatchObject({
			status: '0',
			message: expect.stringMatching(/AI token/),
		});
		expect(await call('/addon/purchase/delete', { id: '900' }, method)).toEqual({
			status: '1',
			message: 'Addon purchase has been deleted successfully.',
		});
		expect(await call('/addon/purchase/delete', { id: '900' }, method)).toEqual({
			status: '0',
			message: 'Addon purchase not found',
		});
	});

	it.each(both)('AI token wallet: read, update, owner check (%s)', async (method) => {
		expect(await call('/user/addon/assign/credits', { id: '907' }, method)).toEqual({
			status: '1',
			message: 'AI tokens have been updated successfully.',
			used: 2500,
			available: 97500,
			credit_limit: 100000,
		});
		expect(
			await call('/user/addon/assign/credits', { id: '907', used: '10', available: '20' }, method),
		).toMatchObject({ used: 10, available: 20, credit_limit: 30 });
		expect(await call('/user/addon/assign/credits', { id: '907', used: '10' }, method)).toEqual({
			status: '0',
			message: 'The available field is required.',
		});
		expect(await call('/user/addon/assign/credits', { id: '907', user_id: '100' }, method)).toEqual(
			{ status: '0', message: 'Addon purchase not found' },
		);
		expect(await call('/user/addon/assign/credits', { id: '1' }, method)).toEqual({
			status: '0',
			message: 'Addon purchase not found',
		});
	});

	it.each(both)('direct login links, logout and transactions (%s)', async (method) => {
		const existing = await call(
			'/user/get/direct-login-url',
			{ email: 'client1@agency.example' },
			method,
		);
		expect(Object.keys(existing.message).sort()).toEqual([
			'direct_login_url',
			'email',
			'login_url',
			'password',
		]);
		expect(
			await call(
				'/user/get/direct-login-url',
				{ email: 'ghost@example.com', create_on_fail: '0' },
				method,
			),
		).toEqual({ status: '0', message: 'User not found' });
		expect(
			(
				await call(
					'/user/get/direct-login-url',
					{
						email: 'ghost@example.com',
						create_on_fail: '1',
						package_id: '1',
						expired_date: '2026-01-01',
					},
					method,
				)
			).status,
		).toBe('1');
		expect(
			await call(
				'/user/get/direct-login-url/only-new-users',
				{ email: 'ghost@example.com', package_id: '1', expired_date: '2026-01-01' },
				method,
			),
		).toEqual({ status: '0', message: 'User already existed' });
		expect(
			(
				await call(
					'/user/get/direct-login-url/only-new-users',
					{ email: 'newer@example.com', package_id: '1', expired_date: '2026-01-01' },
					method,
				)
			).message.email,
		).toBe('newer@example.com');
		expect(await call('/user/logout', { user_id: '100' }, method)).toEqual({
			status: '1',
			message: 'User logout from the system successfully.',
		});
		expect(context.sim.state.loggedOutUserIds).toEqual([100]);
		const transactions = await call('/user/transaction/list', { limit: '4' }, method);
		expect(transactions.message).toHaveLength(4);
		expect(transactions.nextOffset).toBe(2);
		expect(
			(await call('/user/transaction/list', { limit: '4', offset: '2' }, method)).message,
		).toHaveLength(2);
	});
});
