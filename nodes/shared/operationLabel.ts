import type { INode } from 'n8n-workflow';

/**
 * "Message → Send Text": the operation a failed call belongs to, read from the node's own
 * resource/operation parameters, so every error names what failed. Display names are the
 * parameter values in words; the few that are not are listed here (a test checks every operation
 * against the node description).
 */
const RESOURCE_NAMES: Record<string, string> = {
	ai: 'AI',
	crmDeal: 'CRM Deal',
	postBack: 'Post-Back',
};
const OPERATION_NAMES: Record<string, string> = {
	addToSequences: 'Add to Sequences',
	assignToTeamMember: 'Assign to Team Member',
	getAiTokens: 'Get AI Tokens',
	handOver: 'Hand Over to a Person',
	sendAndWait: 'Send and Wait for Response',
	updateAiTokens: 'Update AI Tokens',
};

function words(value: string): string {
	const spaced = value.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
	return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

export function operationLabel(node: Pick<INode, 'parameters'>): string | undefined {
	const { resource, operation } = node.parameters ?? {};
	if (typeof resource !== 'string' || typeof operation !== 'string') return undefined;
	return `${RESOURCE_NAMES[resource] ?? words(resource)} → ${OPERATION_NAMES[operation] ?? words(operation)}`;
}
