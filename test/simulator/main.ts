/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a command-line script, not node code */
/* `npm run simulator`: serves the simulated API with its demo data until Ctrl-C. */
import { startSimulator } from './server';

async function main() {
	const port = Number(process.env.SIMULATOR_PORT ?? 5055);
	const simulator = await startSimulator({ port, token: process.env.SIMULATOR_TOKEN });
	process.stdout.write(
		`BotSailor API simulator\n  Base URL:  ${simulator.url}\n  API token: ${simulator.token}\n  Control:   POST ${simulator.url}/__control/<action>\nPress Ctrl-C to stop.\n`,
	);
	const stop = () => void simulator.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

void main();
