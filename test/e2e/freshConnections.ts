/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test infrastructure in plain Node.js, not node code */
/**
 * Jest setup of the e2e suite: the test process's own HTTP (the REST Session, the answers' fetches, the simulator's
 * webhooks to n8n) asks for a connection per request (`Connection: close`), so no idle connection is kept for reuse.
 * Node's fetch reuses idle connections, and on a loaded machine it can write to one just as n8n's server closes it
 * (Node's 5 s keep-alive): the request fails with ECONNRESET, whatever n8n would have answered. A CI run lost a
 * Human review test so (the run it had resumed then ate the next test's model turns). Loopback connections are cheap.
 */
const keptAliveFetch = globalThis.fetch;

globalThis.fetch = async (input, init) => {
	const headers = new Headers(
		init?.headers ?? (input instanceof Request ? input.headers : undefined),
	);
	if (!headers.has('connection')) headers.set('connection', 'close');
	return await keptAliveFetch(input, { ...init, headers });
};
