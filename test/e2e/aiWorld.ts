/* eslint-disable @n8n/community-nodes/no-restricted-imports -- drives a real n8n from plain Node.js, not node code */
/**
 * The set-up every e2e file with an AI Agent shares: the simulator, the OpenAI stand-in (./openaiStandIn.ts), a real
 * n8n with the package installed, both credentials imported, the file's workflows imported, n8n started with its
 * owner. `close()` undoes it all.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../simulator/server';
import {
	findFreePortPair,
	importCredential,
	importOpenAiCredential,
	importWorkflows,
	installCommunityPackage,
	instance,
	pack,
	provision,
	startWithOwner,
	type N8nInstance,
	type Server,
	type Session,
} from './n8n';
import { startOpenAiStandIn, type OpenAiStandIn } from './openaiStandIn';

export interface AiWorld {
	sim: Simulator;
	standIn: OpenAiStandIn;
	n8n: N8nInstance;
	server: Server;
	session: Session;
	work: string;
	close(): Promise<void>;
}

/**
 * Starts it: `name` names the temporary folder, `openAi` the stand-in's credential the workflows use, `workflows`
 * the workflows to import (file name → workflow).
 */
export async function startAiWorld(
	name: string,
	openAi: { id: string; name: string },
	workflows: Record<string, unknown>,
): Promise<AiWorld> {
	const paths = provision();
	const sim = await startSimulator();
	const standIn = await startOpenAiStandIn();
	const work = mkdtempSync(join(tmpdir(), `botsailor-e2e-${name}-`));
	const n8n = instance(paths, join(work, 'user'), await findFreePortPair());
	installCommunityPackage(n8n, pack(join(work, 'pack')));
	await importCredential(n8n, { baseUrl: sim.url, apiToken: sim.token });
	await importOpenAiCredential(n8n, openAi.id, openAi.name, {
		url: standIn.url,
		apiKey: 'sk-test',
	});
	const folder = join(work, 'workflows');
	mkdirSync(folder);
	for (const [file, workflow] of Object.entries(workflows))
		writeFileSync(join(folder, file), JSON.stringify(workflow, null, 2));
	await importWorkflows(n8n, folder);
	const { server, session } = await startWithOwner(n8n);
	return {
		sim,
		standIn,
		n8n,
		server,
		session,
		work,
		async close() {
			await server.stop();
			await standIn.close();
			await sim.close();
			rmSync(work, { recursive: true, force: true });
		},
	};
}
