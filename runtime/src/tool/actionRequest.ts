import { InvalidValueError } from "../shared/errors.js";

/** A model's request to call a tool: a name and an argument object. */
export interface ActionRequestLike {
  function: unknown;
  arguments: unknown;
}

/** The normalised envelope: the tool name and the raw arguments, untouched. */
export interface ActionEnvelope {
  function: string;
  arguments: unknown;
}

export const ENVELOPE_ERROR =
  "action_request must be an ActionRequest, an object with 'function' and 'arguments', or a message whose content has both.";

/**
 * Reads `{ function, arguments }` from a plain object, a class instance with both fields, or an
 * action-request message whose `content` has both. Anything else is an InvalidValueError.
 */
export function readEnvelope(request: unknown): ActionEnvelope {
  const source = fieldsHolder(request);
  if (!source) throw new InvalidValueError(ENVELOPE_ERROR);
  let fn: unknown;
  let args: unknown;
  try {
    fn = source.function;
    args = source.arguments;
  } catch (error) {
    throw new InvalidValueError(`${ENVELOPE_ERROR} Reading it failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof fn !== "string" || fn === "") throw new InvalidValueError(`${ENVELOPE_ERROR} 'function' must be a non-empty string.`);
  return { function: fn, arguments: args };
}

function fieldsHolder(request: unknown): ActionRequestLike | null {
  if (hasBoth(request)) return request;
  if (request !== null && typeof request === "object") {
    const content = safeGet(request, "content");
    if (hasBoth(content)) return content;
  }
  return null;
}

function hasBoth(value: unknown): value is ActionRequestLike {
  if (value === null || typeof value !== "object") return false;
  try {
    return "function" in value && "arguments" in value;
  } catch {
    return false;
  }
}

function safeGet(object: object, key: string): unknown {
  try {
    return (object as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}
