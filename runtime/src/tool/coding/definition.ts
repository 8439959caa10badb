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

/** How long a file tool's call may take before it answers with a failure (reader, editor, search). */
export const FILE_TOOL_DEADLINE_MS = 30_000;

/**
 * Wraps a tool body: the arguments are parsed with the request model again (a pre-hook may have
 * replaced them without validation) and any error becomes a `{ success: false, error }` result.
 * With `deadlineMs`, a call still running then answers with a failure at once (the file work it
 * started may still finish in the background; it is never reported as done).
 */
export function defineCodingTool<S extends RequestOptions>(
  description: string,
  requestOptions: S,
  body: (args: z.output<S>) => Promise<ToolArgs>,
  deadlineMs?: number,
): CodingToolDefinition {
  return {
    description,
    requestOptions,
    async run(raw) {
      let timer: NodeJS.Timeout | undefined;
      try {
        const work = body(requestOptions.parse(raw));
        if (deadlineMs === undefined) return await work;
        const late = new Promise<ToolArgs>((resolve) => {
          timer = setTimeout(() => resolve(failure(`Did not finish within ${deadlineMs} ms (what it started may still complete)`)), deadlineMs);
        });
        work.catch(() => undefined); // a failure after the deadline has nobody left to tell
        return await Promise.race([work, late]);
      } catch (error) {
        return failure(error);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
