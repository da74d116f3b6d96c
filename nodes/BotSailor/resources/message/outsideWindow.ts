import type { INodeProperties } from 'n8n-workflow';
import { beforeCollections } from '../../../shared/parameters/fieldOrder';
import { checkFields, inputs, onFirstUse, refuse, z } from '../../../shared/parameters/inputs';
import type { SendItem } from '../../sending/sendItem';
import type { WindowChoice } from '../../sending/windowSend';
import { templateVariables } from '../../sending/templateVariables';
import { templateChoiceFields } from './sendTemplate';

/**
 * "Outside the 24-Hour Window" on Send Text, Send Buttons and Send Media: the fields and the item's choice, read and
 * checked before anything is sent (sending/windowSend.ts runs it).
 */

const forTemplate = { outsideWindow: ['template'] };

/** An operation's fields with the window fields added before its collections (Additional Fields, Options). */
export function withWindowFields(fields: INodeProperties[]): INodeProperties[] {
	return beforeCollections(fields, outsideWindowFields());
}

function outsideWindowFields(): INodeProperties[] {
	return [
		{
			displayName: 'Outside the 24-Hour Window',
			name: 'outsideWindow',
			type: 'options',
			options: [
				{
					name: 'Fail',
					value: 'fail',
					description: 'The item fails with the platform’s refusal (nothing is sent)',
				},
				{
					name: 'Send a Template Instead',
					value: 'template',
					description:
						'Send the template chosen below in place of this message; the output says sent_as: "template"',
				},
				{
					name: 'Skip',
					value: 'skip',
					description: 'Send nothing; the item is output with skipped: true and the reason',
				},
			],
			default: 'fail',
			description:
				'What to do when the subscriber last wrote more than 24 hours ago: WhatsApp then lets only a template reach them',
		},
		...templateChoiceFields(forTemplate, 'Template to Send Instead'),
		{
			displayName: 'Template Header Media URL',
			name: 'templateHeaderMediaUrl',
			type: 'string',
			default: '',
			placeholder: 'https://example.com/banner.jpg',
			description:
				'Public URL of the header image, video or document, when the template sent instead has a media header',
			displayOptions: { show: forTemplate },
		},
		{
			displayName: 'Check Window First',
			name: 'checkWindowFirst',
			type: 'boolean',
			default: false,
			description:
				'Whether to read the conversation before sending, and go straight to the template (or skip) when the subscriber is outside the window. Costs one or more requests per item; only needed when your platform words its refusal in a way the node does not recognise.',
			displayOptions: { show: { outsideWindow: ['template', 'skip'] } },
		},
	];
}

const templateSchema = onFirstUse(() =>
	z.object({
		phone_number_id: inputs.required.describe('WhatsApp Number'),
		template_id: inputs.required.describe('Template to Send Instead'),
		phone_number: inputs.phoneNumber.describe('Subscriber'),
		template_header_media_url: z
			.string()
			.url('must be a URL, e.g. https://example.com/banner.jpg')
			.optional()
			.describe('Template Header Media URL'),
	}),
);

/** The item's choice; a template without an id or with an empty variable is refused here, before any request. */
export function windowChoiceOf(item: SendItem): WindowChoice {
	const action = String(item.param('outsideWindow', 'fail'));
	if (action === 'fail') return { action };
	const checkFirst = item.param('checkWindowFirst', false) === true;
	if (action === 'skip') return { action, checkFirst };
	if (action !== 'template')
		refuse(
			item,
			`Outside the 24-Hour Window must be Fail, Send a Template Instead or Skip, not "${action}"`,
			'Parameter "Outside the 24-Hour Window".',
		);
	const template = checkFields(item, templateSchema(), {
		phone_number_id: item.param('phoneNumberId', undefined, { extractValue: true }),
		template_id: item.param('templateId', undefined, { extractValue: true }),
		phone_number: item.param('phoneNumber', undefined, { extractValue: true }),
		template_header_media_url: item.param('templateHeaderMediaUrl', ''),
	});
	return { action, checkFirst, template: { ...template, ...templateVariables(item) } };
}
