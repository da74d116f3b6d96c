/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- reads and writes the README in plain Node.js */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { operationsTable } from '../scripts/operations-table';

const README = join(__dirname, '..', 'README.md');
const START = '<!-- operations:start -->';
const END = '<!-- operations:end -->';

describe('README', () => {
	it('lists every resource and operation of the node, as the node describes them', () => {
		const readme = readFileSync(README, 'utf8');
		const [before, rest] = readme.split(START);
		const after = rest.split(END)[1];
		const expected = `${before}${START}\n${operationsTable()}\n${END}${after}`;
		if (process.env.UPDATE_README) writeFileSync(README, expected);
		expect(readFileSync(README, 'utf8')).toBe(expected);
	});
});
