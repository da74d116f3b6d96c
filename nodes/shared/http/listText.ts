import { isRecord } from '../parameters/values';
import { decodeJsonText } from '../parameters/jsonStrings';

/**
 * A list payload as some deployments send it: a string holding JSON (SPEC-GAP: the spec shows arrays;
 * five integrators report `message` as the JSON text of an array, of an object keyed "0","1",…, or of
 * an object keyed by the row id). Returns the decoded array or object; anything else as it came.
 */
export function decodedListPayload(payload: unknown): unknown {
	if (typeof payload !== 'string') return payload;
	const parsed = decodeJsonText(payload);
	return Array.isArray(parsed) || isRecord(parsed) ? parsed : payload;
}

/**
 * Whether the records of a list payload come in the order the platform served them: an array, or an
 * object keyed "0","1",… in sequence. An object keyed by row id is not an order (JSON objects have none,
 * and JavaScript lists integer keys ascending whatever the text said): such rows must be sorted.
 */
export function isServedOrder(payload: unknown): boolean {
	const decoded = decodedListPayload(payload);
	if (Array.isArray(decoded)) return true;
	if (!isRecord(decoded)) return true;
	return Object.keys(decoded).every((key, index) => key === String(index));
}
