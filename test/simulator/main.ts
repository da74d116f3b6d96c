/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a command-line script, not node code */
/* `npm run simulator [-- --port 5055 --host 127.0.0.1]`: serves the simulated API with its demo data until Ctrl-C. */
import { parseArgs } from 'node:util';
import { startSimulator } from './server';

async function main() {
	const { values } = parseArgs({
		options: {
			// --port 0 takes a free port (printed below); SIMULATOR_PORT is the same setting from the environment.
			port: { type: 'string', default: process.env.SIMULATOR_PORT ?? '5055' },
			host: { type: 'string', default: process.env.SIMULATOR_HOST ?? '127.0.0.1' },
		},
	});
	const port = Number(values.port);
	if (!Number.isInteger(port) || port < 0 || port > 65535)
		throw new Error(`--port must be a port number (0 for any free port), got ${values.port}`);
	const simulator = await startSimulator({
		port,
		host: values.host,
		token: process.env.SIMULATOR_TOKEN,
	});
	process.stdout.write(
		`BotSailor API simulator\n  Base URL:  ${simulator.url}\n  API token: ${simulator.token}\n  Control:   POST ${simulator.url}/__control/<action>\nPress Ctrl-C to stop.\n`,
	);
	const stop = () => void simulator.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error: Error) => {
	process.stderr.write(`${error.message}\n`);
	process.exit(1);
});
