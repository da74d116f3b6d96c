import type { INodeProperties } from 'n8n-workflow';
import { showFor, whatsAppNumber } from '../common';
import { unwrap } from '../../shared/output';
import { multipartUpload } from '../../shared/upload';

const resource = 'media';

export const mediaOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: [resource] } },
	options: [
		{
			name: 'Upload',
			value: 'upload',
			action: 'Upload a media file',
			description: 'Upload a file from the input item; send it later with Message → Send Media by its media ID',
			routing: {
				request: { url: '/whatsapp/upload/media' },
				send: { preSend: [multipartUpload('binaryPropertyName')] },
				output: {
					postReceive: [
						unwrap('confirmation', ({ media_id, media_type, media_name }) => ({ media_id, media_type, media_name })),
					],
				},
			},
		},
	],
	default: 'upload',
};

export const mediaDescription: INodeProperties[] = [
	mediaOperations,
	whatsAppNumber(resource, ['upload']),
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input binary field containing the file to upload',
		displayOptions: showFor(resource, ['upload']),
	},
];
