/**
 * Row 11: Send Text with "Outside the 24-Hour Window: Send a Template Instead" over subscribers of whom half last
 * wrote 30 hours ago, against plain Send Text (Fail, Continue On Fail) over the same items. What the fallback costs:
 * requests per item inside and outside the window, and CPU per item inside it (where it should cost nothing).
 */
import { runNode } from '../test/harness/harness';
import { fmt, median, timed, type SimProcess } from './lib';
import { sendTextNode, sendTextParameters } from './sendTextNode';

const TEMPLATE = {
	outsideWindow: 'template',
	templateId: { __rl: true, mode: 'id', value: '900000' },
	variableSource: 'manual',
	manualVariables: {
		variable: [
			{ label: 'first_name', position: 1, value: 'friend' },
			{ label: 'discount', position: 2, value: '10%' },
		],
	},
};

type Row = [string, string, string, string, string, string, string];

export async function windowRows(
	sim: SimProcess,
	{ count, phoneNumberId }: { count: number; phoneNumberId: string },
): Promise<Row[]> {
	await sim.control('reset');
	await sim.control('deployment', { sessionWindow: 'enforced' });
	await sim.control('clock', { time_zone: 'UTC' });
	const phone = (index: number) => `1996${String(index).padStart(6, '0')}`;
	const half = Math.floor(count / 2);
	const inside = Array.from({ length: half }, (_, index) => phone(index));
	const outside = Array.from({ length: count - half }, (_, index) => phone(half + index));
	for (const number of [...inside, ...outside])
		await sim.control('message', { phone_number_id: phoneNumberId, phone_number: number });
	for (const number of outside)
		await sim.control('window', {
			phone_number_id: phoneNumberId,
			phone_number: number,
			hours_ago: 30,
		});

	const node = sendTextNode({});
	const credentials = { baseUrl: sim.url, apiToken: sim.token, apiForm: 'current' as const };
	const run = async (phones: string[], extra: object) => {
		await sim.control('clear-requests');
		const measured = await timed(() =>
			runNode({
				nodeType: node,
				credentials,
				continueOnFail: true,
				items: phones.map((number) => ({ json: { phone: number, text: 'Your order is ready' } })),
				parameters: { ...sendTextParameters(phoneNumberId), ...extra } as never,
			}),
		);
		if (measured.result.error) throw new Error(`row 11: ${measured.result.error.message}`);
		const requests = await sim.control<unknown[]>('requests');
		const outcome = (test: (json: Record<string, unknown>) => boolean) =>
			measured.result.items.filter((item) => test(item.json)).length;
		return {
			requestsPerItem: requests.length / phones.length,
			cpuPerItem: measured.cpuMs / phones.length,
			templates: outcome((json) => json.sent_as === 'template'),
			refused: outcome((json) => typeof json.error === 'string'),
		};
	};
	await run(inside.slice(0, 50), {}); // warm-up (JIT, module loads)
	await run(inside.slice(0, 50), TEMPLATE);
	// Three runs of each, taking turns; CPU is the median (one run alone is noisy at a few ms per item).
	const alternating = async (phones: string[]) => {
		const runs: Array<Array<Awaited<ReturnType<typeof run>>>> = [[], []];
		for (let turn = 0; turn < 3; turn++)
			for (const [index, extra] of [{}, TEMPLATE].entries())
				runs[index].push(await run(phones, extra));
		return runs.map((each) => ({
			...each[0],
			cpuPerItem: median(each.map((entry) => entry.cpuPerItem)),
		}));
	};
	const [plainInside, fallbackInside] = await alternating(inside);
	const [plainOutside, fallbackOutside] = await alternating(outside);
	const checkedInside = await run(inside, { ...TEMPLATE, checkWindowFirst: true });
	const checkedOutside = await run(outside, { ...TEMPLATE, checkWindowFirst: true });

	const label = `11. Send Text × ${count}, half outside the 24-hour window: Send a Template Instead vs plain Send Text (Fail)`;
	return [
		[
			label,
			'0 ms',
			'requests per item inside the window',
			fmt(fallbackInside.requestsPerItem, 2),
			fmt(plainInside.requestsPerItem, 2),
			fmt(fallbackInside.requestsPerItem / plainInside.requestsPerItem, 2),
			'1.00 (nothing extra)',
		],
		[
			label,
			'0 ms',
			'requests per item outside the window',
			`${fmt(fallbackOutside.requestsPerItem, 2)} (${fallbackOutside.templates} templates sent)`,
			`${fmt(plainOutside.requestsPerItem, 2)} (${plainOutside.refused} refused)`,
			fmt(fallbackOutside.requestsPerItem / plainOutside.requestsPerItem, 2),
			'2.00 (exactly one more)',
		],
		[
			label,
			'0 ms',
			'CPU per item inside the window (ms)',
			fmt(fallbackInside.cpuPerItem, 3),
			fmt(plainInside.cpuPerItem, 3),
			fmt(fallbackInside.cpuPerItem / plainInside.cpuPerItem, 2),
			'≤ 1.0 (nothing extra)',
		],
		[
			label,
			'0 ms',
			'CPU per item outside the window (ms)',
			fmt(fallbackOutside.cpuPerItem, 3),
			fmt(plainOutside.cpuPerItem, 3),
			fmt(fallbackOutside.cpuPerItem / plainOutside.cpuPerItem, 2),
			'–',
		],
		[
			label,
			'0 ms',
			'with Check Window First: requests per item inside / outside',
			`${fmt(checkedInside.requestsPerItem, 2)} / ${fmt(checkedOutside.requestsPerItem, 2)}`,
			`${fmt(plainInside.requestsPerItem, 2)} / ${fmt(plainOutside.requestsPerItem, 2)}`,
			'–',
			'one conversation read more per item',
		],
	];
}
