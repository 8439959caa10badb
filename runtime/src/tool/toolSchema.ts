import { z } from "zod";

/** A JSON-schema object (what zod's `z.toJSONSchema` produces and what a model reads). */
export type JsonSchemaObject = Record<string, unknown>;

/** The OpenAI-style function description a model is given for one tool. */
export interface ToolSchema {
  type: "function";
  function: {
    name: string;
    description?: string;
    parameters: JsonSchemaObject;
  };
}

/** A tool's request model: a zod object schema. */
export type RequestOptions = z.ZodObject;

const EMPTY_PARAMETERS: () => JsonSchemaObject = () => ({ type: "object", properties: {}, required: [] });

/**
 * The JSON schema of a request model as the model should fill it: the input side, so fields
 * with defaults and optional fields are not listed as required.
 */
export function parametersOf(requestOptions: RequestOptions | null): JsonSchemaObject {
  if (!requestOptions) return EMPTY_PARAMETERS();
  const { $schema: _dropped, ...schema } = z.toJSONSchema(requestOptions, { io: "input", unrepresentable: "any" }) as JsonSchemaObject;
  return schema;
}

/** Builds the function description from a name, an optional description and the parameters. */
export function buildToolSchema(name: string, description: string | undefined, parameters: JsonSchemaObject | undefined): ToolSchema {
  const fn: ToolSchema["function"] = { name, parameters: parameters ?? EMPTY_PARAMETERS() };
  if (description !== undefined) fn.description = description;
  return { type: "function", function: fn };
}

/** The `required` names of a schema's parameters (empty when it lists none). */
export function requiredOf(schema: ToolSchema): Set<string> {
  const required = schema.function.parameters["required"];
  return new Set(Array.isArray(required) ? required.filter((name): name is string => typeof name === "string") : []);
}
