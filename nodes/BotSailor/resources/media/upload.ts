import { unwrap } from '../../running/outputItems';
import { multipartUpload } from '../../sending/upload';
import { whatsAppNumber } from '../common';
import type { OperationDescription } from '../resource';

export const uploadOperation: OperationDescription = {
	kind: 'write',
	toolDescription: 'Upload a file to the platform and get a media ID to send it with later.',
	option: {
		name: 'Upload',
		value: 'upload',
		action: 'Upload a media file',
		description:
			'Upload a file from the input item; send it later with Message → Send Media by its media ID',
		routing: {
			request: { url: '/whatsapp/upload/media' },
			send: { preSend: [multipartUpload('binaryPropertyName')] },
			output: {
				// The whole confirmation, as every other write outputs it (media_id, media_type, media_name, message).
				postReceive: [unwrap('confirmation')],
			},
		},
	},
	fields: [
		whatsAppNumber(),
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			hint: 'The name of the input binary field containing the file to upload',
		},
	],
};
