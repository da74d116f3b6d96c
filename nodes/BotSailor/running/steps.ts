import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IHttpRequestOptions,
	type JsonObject,
} from 'n8n-workflow';
import { listRecords } from '../../shared/http/envelope';
import { operationLabel } from '../../shared/parameters/operationLabel';
import { sendRequest, usesEarlierForm } from '../../shared/http/transport';
import { errorMessage, text } from '../../shared/parameters/values';
import type { OperationContext } from './operationRequest';

/**
 * An operation made of several requests (Subscriber → Opt Out, Opt In, Hand Over to a Person): each request
 * is a named step; a failed step fails the item with an error that names the step and lists what the steps
 * before it already changed on the platform (nothing is undone: the same operation can simply run again).
 */
export class Steps {
	/** What the finished steps changed, in words ("label opted-out added"). */
	readonly done: string[] = [];

	constructor(
		private readonly context: OperationContext,
		/** The operation's request as the routing built it (credential, timeout, proxy): each step changes url and body. */
		private readonly request: IHttpRequestOptions,
	) {}

	/** One API request of a step: the envelope, or a failure naming the step. */
	async call(step: string, url: string, fields: IDataObject): Promise<IDataObject> {
		return await this.run(
			step,
			async () =>
				await sendRequest.call(
					this.context,
					{ ...this.request, url, body: fields },
					this.context.getItemIndex(),
				),
		);
	}

	/** Runs a step; its failure names it and what was already done. */
	async run<T>(step: string, action: () => Promise<T>): Promise<T> {
		try {
			return await action();
		} catch (error) {
			const operation = operationLabel(this.context.getNode()) ?? 'The operation';
			const already = this.done.length
				? `Already done before it failed: ${this.done.join('; ')}.`
				: 'Nothing was changed on the platform before it failed.';
			const message = `${operation} failed at step "${step}": ${errorMessage(error)}`;
			const description = `${already} Running it again is safe: steps already done are repeated without harm.`;
			const itemIndex = this.context.getItemIndex();
			if (error instanceof NodeApiError)
				throw new NodeApiError(this.context.getNode(), { message: error.message } as JsonObject, {
					message,
					description: [description, error.description].filter(Boolean).join(' '),
					httpCode: error.httpCode ?? undefined,
					itemIndex,
				});
			throw new NodeOperationError(this.context.getNode(), message, { description, itemIndex });
		}
	}

	/** Records what a finished step changed. */
	record(change: string): void {
		this.done.push(change);
	}

	/** The labels of the account (current form) or of the number (earlier form). */
	async labels(phoneNumberId: string): Promise<IDataObject[]> {
		const earlier = await usesEarlierForm(this.context);
		const envelope = earlier
			? await this.call('read the labels', '/whatsapp/label/list', {
					phone_number_id: phoneNumberId,
				})
			: await this.call('read the labels', '/label/list', {});
		return listRecords(envelope) ?? [];
	}

	/** Creates a label (the platform answers without its id: the caller reads the list again). */
	async createLabel(phoneNumberId: string, name: string): Promise<void> {
		const earlier = await usesEarlierForm(this.context);
		if (earlier)
			await this.call('create the label', '/whatsapp/label/create', {
				phone_number_id: phoneNumberId,
				label_name: name,
			});
		else await this.call('create the label', '/label/create', { label_name: name });
	}
}

/** A label of a list by name (case and surrounding spaces ignored). */
export function labelNamed(labels: IDataObject[], name: string): IDataObject | undefined {
	const wanted = name.trim().toLowerCase();
	return labels.find((label) => (text(label.label_name) ?? '').toLowerCase() === wanted);
}
