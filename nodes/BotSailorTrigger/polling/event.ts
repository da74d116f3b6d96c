import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';
import { locatorValue } from '../../shared/parameters/locatorValue';

/** What a poll produces: the items to emit and the state to store, both applied only when the whole poll succeeded. */
export interface PollResult<State> {
	items: IDataObject[];
	state: State;
}

/**
 * One event of the trigger, in its own file under events/. `State` is the event's own type; the node
 * stores it with `stateVersion` and hands a stored state back only to the same event at the same
 * version (or through `migrate`): any other state is replaced by a fresh start from now.
 */
export interface TriggerEvent<State> {
	value: string;
	name: string;
	description: string;
	/** Whether the event reads a WhatsApp number's data (shows the WhatsApp Number parameter). */
	perNumber: boolean;
	/** The event's own parameters (shown only for it). */
	properties: INodeProperties[];
	/** Identifies what the stored state is about: a change (other number, other catalog) starts afresh. */
	scope(context: IPollFunctions): string;
	/**
	 * The version of the state this code writes. Raise it whenever the state's shape or meaning changes.
	 * States stored before versions existed count as version 1.
	 */
	stateVersion: number;
	/**
	 * Reads a state an earlier version of this event stored (a copy); undefined when it cannot, and
	 * then the trigger starts from now. Without it, any other version starts from now.
	 */
	migrate?(state: unknown, version: number): State | undefined;
	/** First activation: record where "now" is, emit nothing. */
	start(context: IPollFunctions): Promise<State>;
	/** A later poll from the stored state, which it must not modify. */
	poll(context: IPollFunctions, state: State): Promise<PollResult<State>>;
	/**
	 * Manual run ("Fetch Test Event"): the newest matching record, or undefined when there is none.
	 * One record, like n8n's own polling triggers, so that testing a workflow acts on one sample at
	 * most; no state involved.
	 */
	newest(context: IPollFunctions): Promise<IDataObject | undefined>;
	/** The items to emit, when an event adds more than JSON (New Message's Download Media attaches binary data). */
	output?(context: IPollFunctions, items: IDataObject[]): Promise<INodeExecutionData[]>;
}

/** The WhatsApp number's phone_number_id from the resource locator. */
export function phoneNumberIdOf(context: IPollFunctions): string {
	return locatorValue(context, 'phoneNumberId');
}

/** How many of the most recently active subscribers a manual run reads to find the newest matching message. */
export const SAMPLE_SUBSCRIBERS = 5;
