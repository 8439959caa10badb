/** Distinct subjects (tool names, models, chunk types) remembered per operation. */
const MAX_NAMES = 256;

const NAMES = new Map<string, Map<string, string>>();

/**
 * `"<operation> <subject>"` (`execute_tool lookup`, `chat gpt-4o`): one string per tool, model or
 * chunk type rather than a new one per span, which every span would hold until it is exported.
 */
export function spanName(operation: string, subject: string): string {
  let names = NAMES.get(operation);
  if (names === undefined) NAMES.set(operation, (names = new Map()));
  let name = names.get(subject);
  if (name === undefined) {
    name = `${operation} ${subject}`;
    if (names.size < MAX_NAMES) names.set(subject, name);
  }
  return name;
}
