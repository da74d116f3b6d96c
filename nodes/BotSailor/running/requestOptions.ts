import type { IHttpRequestOptions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { FORM_CONTENT_TYPE } from '../../shared/http/transport';

/** The node's Options (n8n adds them to declarative nodes): timeout, proxy, certificates, batching. */
export interface RequestOptionsParameter {
	timeout?: number;
	proxy?: string;
	allowUnauthorizedCerts?: boolean;
	batching?: { batch?: { batchSize?: number; batchInterval?: number } };
}

/** The request every item of the run sends, but for its fields. */
export function requestTemplate(
	node: INode,
	url: string,
	options: RequestOptionsParameter,
): IHttpRequestOptions {
	const request: IHttpRequestOptions = {
		method: 'POST',
		url,
		headers: { 'Content-Type': FORM_CONTENT_TYPE, Accept: 'application/json' },
		timeout: options.timeout || 300_000,
	};
	if (options.allowUnauthorizedCerts) request.skipSslCertificateValidation = true;
	if (options.proxy) {
		let proxy: URL;
		try {
			proxy = new URL(options.proxy.includes('://') ? options.proxy : `http://${options.proxy}`);
		} catch {
			throw new NodeOperationError(node, 'The proxy is not valid', {
				description: 'Set Options → Proxy to a URL such as http://proxy.example.com:8080.',
			});
		}
		request.proxy = {
			host: proxy.hostname,
			port: Number(proxy.port) || (proxy.protocol === 'https:' ? 443 : 80),
			protocol: proxy.protocol.replace(/:$/, ''),
			...(proxy.username
				? {
						auth: {
							username: decodeURIComponent(proxy.username),
							password: decodeURIComponent(proxy.password),
						},
					}
				: {}),
		};
	}
	return request;
}

/**
 * What every request of an operation carries from its Options, the reads a send makes first included (Skip Opted-Out's
 * Subscriber → Get, Check Window First's conversation, Send Media's upload): the deadline (Options → Timeout), the
 * proxy and the certificate choice.
 */
export function requestDefaults(
	node: INode,
	options: RequestOptionsParameter,
): Pick<IHttpRequestOptions, 'timeout' | 'proxy' | 'skipSslCertificateValidation'> {
	const { timeout, proxy, skipSslCertificateValidation } = requestTemplate(node, '', options);
	return {
		timeout,
		...(proxy ? { proxy } : {}),
		...(skipSslCertificateValidation ? { skipSslCertificateValidation } : {}),
	};
}
