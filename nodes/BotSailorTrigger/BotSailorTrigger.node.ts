import {
	NodeConnectionTypes,
	type IDataObject,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';
import { listSearch } from '../BotSailor/methods/listSearch';
import { whatsAppNumber } from '../BotSailor/resources/common';
import { catalogOrderStatusChanged } from './events/catalogOrderStatusChanged';
import { messageStatusChanged } from './events/messageStatusChanged';
import { newCatalogOrder } from './events/newCatalogOrder';
import { newMessage } from './events/newMessage';
import { newSubscriber } from './events/newSubscriber';
import { templateStatusChanged } from './events/templateStatusChanged';
import type { TriggerEvent } from './lib/event';

/** Every event, alphabetised by name as n8n lists options. */
const EVENTS = [
	catalogOrderStatusChanged,
	messageStatusChanged,
	newCatalogOrder,
	newMessage,
	newSubscriber,
	templateStatusChanged,
] as unknown as TriggerEvent[];

/** The action node's WhatsApp Number locator (same list search), shown for the events that read one number. */
function whatsAppNumberProperty(): INodeProperties {
	const property: INodeProperties = {
		...whatsAppNumber('trigger', []),
		displayOptions: { show: { event: EVENTS.filter((event) => event.perNumber).map((event) => event.value) } },
	};
	delete property.routing;
	return property;
}

/** What the node keeps between polls: which event/number the state is about, and the event's state. */
interface Stored {
	scope?: string;
	state?: IDataObject;
}

/** The n8n items of an event's records: JSON, plus what the event adds (binary data). */
async function emitted(context: IPollFunctions, event: TriggerEvent, items: IDataObject[]): Promise<INodeExecutionData[]> {
	return event.output ? await event.output(context, items) : context.helpers.returnJsonArray(items);
}

export class BotSailorTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'BotSailor Trigger',
		name: 'botSailorTrigger',
		icon: { light: 'file:../../icons/botsailor.svg', dark: 'file:../../icons/botsailor.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ ({"catalogOrderStatusChanged":"Catalog Order Status Changed","messageStatusChanged":"Message Status Changed","newCatalogOrder":"New Catalog Order","newMessage":"New Message","newSubscriber":"New Subscriber","templateStatusChanged":"Template Status Changed"}[$parameter["event"]] || $parameter["event"]) }}',
		description: 'Starts a workflow on new WhatsApp messages, status changes, subscribers, catalog orders and template reviews in BotSailor',
		defaults: { name: 'BotSailor Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'botSailorApi', required: true }],
		properties: [
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: EVENTS.map((event) => ({ name: event.name, value: event.value, description: event.description })),
				default: 'newMessage',
			},
			whatsAppNumberProperty(),
			...EVENTS.flatMap((event) => event.properties),
		],
	};

	methods = { listSearch };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const eventName = this.getNodeParameter('event') as string;
		const event = EVENTS.find((entry) => entry.value === eventName);
		if (!event) return null;

		// A manual run ("Fetch Test Event", or a test of the whole workflow) emits ONE record, the newest, like
		// n8n's own polling triggers: a test acts on one sample at most. It reads no cursor and moves none.
		if (this.getMode() === 'manual') {
			const newest = await event.newest(this);
			return newest ? [await emitted(this, event, [newest])] : null;
		}

		const stored = this.getWorkflowStaticData('node') as Stored;
		const scope = event.scope(this);
		let items: IDataObject[] = [];
		let state: IDataObject;
		if (stored.scope === scope && stored.state) {
			// A copy: n8n keeps the in-memory static data between polls, so nothing may change before the poll succeeds.
			const result = await event.poll(this, JSON.parse(JSON.stringify(stored.state)) as IDataObject);
			items = result.items;
			state = result.state;
		} else {
			// First activation (or another event/number): start from now, replay nothing.
			state = await event.start(this);
		}
		// Only now, after every request succeeded, the new state replaces the old one.
		stored.scope = scope;
		stored.state = state;
		return items.length ? [await emitted(this, event, items)] : null;
	}
}
