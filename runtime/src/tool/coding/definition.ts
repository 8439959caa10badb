import type { z } from "zod";
import type { ToolArgs } from "../objects.js";
import type { RequestOptions } from "../toolSchema.js";
import { failure } from "./workspace.js";

/** One coding tool before it becomes a Tool: what it does, its request model and its body. */
export interface CodingToolDefinition {
  description: string;
  requestOptions: RequestOptions;
  /** Never throws: expected failures come back as `{ success: false, error }`. */
  run(args: ToolArgs): Promise<ToolArgs>;
}

/**
 * Wraps a tool body: the arguments are parsed with the request model again (a pre-hook may have
 * replaced them without validation) and any error becomes a `{ success: false, error }` result.
 */
export function defineCodingTool<S extends RequestOptions>(
  description: string,
  requestOptions: S,
  body: (args: z.output<S>) => Promise<ToolArgs>,
): CodingToolDefinition {
  return {
    description,
    requestOptions,
    async run(raw) {
      try {
        return await body(requestOptions.parse(raw));
      } catch (error) {
        return failure(error);
      }
    },
  };
}
