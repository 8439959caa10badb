import { z } from "zod";
import { parseWith } from "../shared/arguments.js";
import { getLogger } from "../shared/log.js";
import type { ToolPostHook } from "./hookTypes.js";
import { isPlainObject, ownValue } from "./objects.js";
import { runArgv } from "./subprocess.js";

/** The formatter deadline, inherited from the original hook. */
export const AUTO_FORMAT_TIMEOUT_MS = 10_000;

export interface AutoFormatOptions {
  /** The formatter's argv; the file path is appended. Default `["prettier", "--write"]` (found on PATH). */
  command?: readonly string[];
  /** File endings to format. Default: TypeScript sources. */
  extensions?: readonly string[];
  /** Default {@link AUTO_FORMAT_TIMEOUT_MS}. */
  timeoutMs?: number;
  cwd?: string;
}

const TYPESCRIPT_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts"] as const;

const optionsSchema = z.strictObject({
  command: z.array(z.string().min(1)).min(1).optional(),
  extensions: z.array(z.string()).optional(),
  timeoutMs: z.number().positive().finite().optional(),
  cwd: z.string().optional(),
});

/**
 * A post-hook that formats the file a successful edit wrote: when the result has a truthy
 * `success` and `args.filePath` ends with one of the extensions, it runs the formatter as an argv
 * subprocess (never a shell) with a 10 s deadline. Failures and timeouts are logged and
 * swallowed; the hook always returns undefined, so the result is never changed.
 *
 * As built, it reads the path from `args` — and a factory post chain always passes `{}` as args,
 * so attached through `AgentSpec.post` or `CodingToolkit.post` it never formats anything. Call it
 * yourself with the real arguments.
 */
export function autoFormat(options: AutoFormatOptions = {}): ToolPostHook {
  // Checked once, here: a bad option would otherwise only show as a warning at every edit.
  options = parseWith(optionsSchema, options, "autoFormat(options)", "options");
  const command = [...(options.command ?? ["prettier", "--write"])];
  const extensions = [...(options.extensions ?? TYPESCRIPT_EXTENSIONS)];
  const timeoutMs = options.timeoutMs ?? AUTO_FORMAT_TIMEOUT_MS;
  return async function autoFormatPost(toolName, _action, args, result): Promise<undefined> {
    try {
      if (!isPlainObject(result) || !ownValue(result, "success")) return undefined;
      const filePath = ownValue(args, "filePath");
      if (typeof filePath !== "string" || !extensions.some((ending) => filePath.endsWith(ending))) return undefined;
      const run = await runArgv([...command, filePath], { timeoutMs, ...(options.cwd ? { cwd: options.cwd } : {}) });
      if (run.spawnError || run.timedOut || run.returnCode !== 0) {
        const reason =
          run.spawnError?.message ?? (run.timedOut ? `timed out after ${timeoutMs} ms` : `exit ${run.returnCode}: ${run.stderr.trim()}`);
        getLogger().warn({ tool: toolName, filePath, command: command[0] }, `auto-format failed for ${filePath}: ${reason}`);
      }
    } catch (error) {
      getLogger().warn({ tool: toolName, err: error }, `auto-format failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return undefined;
  };
}

/** {@link autoFormat} with its defaults: prettier on `.ts`, `.tsx`, `.mts` and `.cts` files. */
export const autoFormatTypeScript: ToolPostHook = autoFormat();
