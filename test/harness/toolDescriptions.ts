import { RESOURCES } from '../../nodes/BotSailor/resources';
import { describedForTool, modelText } from '../../nodes/BotSailor/resources/toolDescriptionField';

export { CUSTOMER_TEXT_IS_DATA } from '../../nodes/BotSailor/resources/toolDescriptionField';

/**
 * Every operation's text for an AI model, by `resource.operation`, read from the operation records (each
 * record's `toolDescription`, nodes/BotSailor/resources/toolDescriptionField.ts). Not used by the node itself (so it
 * lives with the tests): the tests and the e2e suites read the texts here.
 */
const OPERATIONS = RESOURCES.flatMap((resource) =>
	resource.operations.map(
		(operation) => [`${resource.name}.${operation.option.value}`, operation] as const,
	),
);

/** The operations whose answers carry customer-written text (test/toolDescriptions.test.ts checks each says so). */
export const RETURNS_CUSTOMER_TEXT: string[] = OPERATIONS.filter(
	([, operation]) => operation.returnsCustomerText,
).map(([key]) => key);

export const TOOL_DESCRIPTIONS: Record<string, string> = Object.fromEntries(
	OPERATIONS.filter(([, operation]) => operation.toolDescription).map(([key, operation]) => [
		key,
		modelText(operation),
	]),
);

/** The description the tool gets for one operation: its text, the number it acts for, the phone format. */
export function toolDescriptionText(
	key: string,
	flags: { hasNumber: boolean; hasPhone: boolean },
	resolvesExpressions?: boolean,
): string {
	const text = TOOL_DESCRIPTIONS[key];
	if (text === undefined) throw new Error(`${key}: no tool description in TOOL_DESCRIPTIONS`);
	return describedForTool(text, flags, resolvesExpressions);
}
