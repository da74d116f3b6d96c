/* eslint-disable @typescript-eslint/no-require-imports -- each file is loaded afresh, as n8n loads it at start */
/**
 * n8n loads every node file of the package when it starts, on every worker (bench row 5 times it). Loading must
 * build the descriptions and nothing a run needs: ICU's collator (localeCompare, Intl.Collator) costs about 15 ms
 * the first time a process uses it, more than a third of the package's cold load, and came back once through a
 * sort of option names (replyGuards.ts); names are ordered by code unit instead (`byCodeUnit` in fieldOrder.ts).
 */
const PACKAGE_FILES = [
	'../nodes/BotSailor/BotSailor.node',
	'../nodes/BotSailorTrigger/BotSailorTrigger.node',
	'../nodes/BotSailorWebhookTrigger/BotSailorWebhookTrigger.node',
	'../credentials/BotSailorApi.credentials',
];

describe('loading the nodes and the credential', () => {
	afterEach(() => jest.restoreAllMocks());

	it('uses no locale-aware collation (localeCompare, Intl.Collator)', () => {
		const localeCompare = jest.spyOn(String.prototype, 'localeCompare');
		const collator = jest.spyOn(Intl, 'Collator');
		const loaded: string[] = [];
		jest.isolateModules(() => {
			require('n8n-workflow'); // loaded by n8n before the package: its own calls are not ours
			localeCompare.mockClear();
			collator.mockClear();
			for (const file of PACKAGE_FILES) loaded.push(...Object.keys(require(file) as object));
		});
		expect(loaded).toEqual([
			'BotSailor',
			'BotSailorTrigger',
			'BotSailorWebhookTrigger',
			'BotSailorApi',
		]);
		expect(localeCompare).not.toHaveBeenCalled();
		expect(collator).not.toHaveBeenCalled();
	});
});
