import { optionsObject, requireFunction, requireInstance, requireName } from "../../shared/arguments.js";
import { InvalidValueError } from "../../shared/errors.js";
import { chainPostHooks, chainPreHooks } from "../chains.js";
import { NotSupportedError } from "../errors.js";
import type { ToolErrorHook, ToolPostHook, ToolPreHook } from "../hookTypes.js";
import { isPlainObject, ownValue, type ToolArgs } from "../objects.js";
import { Tool } from "../tool.js";
import { bashTool, type BashToolOptions } from "./bash.js";
import type { CodingToolDefinition } from "./definition.js";
import { editorTool } from "./editor.js";
import { NudgeEngine } from "./nudge.js";
import { readerTool } from "./reader.js";
import { searchTool, type SearchToolOptions } from "./search.js";
import { Workspace } from "./workspace.js";

/** Every coding tool this runtime provides. */
export const ALL_CODING_TOOLS = ["reader", "editor", "bash", "search"] as const;
/** The tools a toolkit gets when none are named. */
export const DEFAULT_CODING_TOOLS: readonly CodingToolName[] = ALL_CODING_TOOLS;
export type CodingToolName = (typeof ALL_CODING_TOOLS)[number];

export interface CodingToolkitOptions {
  /** The directory every tool is confined to; default the process's working directory. */
  workspaceRoot?: string;
  tools?: readonly string[];
  /** Add the notify post-hook on `bind` (default true). */
  notify?: boolean;
  bash?: BashToolOptions;
  search?: SearchToolOptions;
}

/** Builds the body of a coding tool confined to a workspace. */
export function codingToolDefinition(
  name: CodingToolName,
  workspace: Workspace,
  options: { bash?: BashToolOptions; search?: SearchToolOptions } = {},
): CodingToolDefinition {
  const where = "codingToolDefinition(name, workspace, options)";
  checkCodingToolNames([name]);
  requireInstance(workspace, Workspace, "a Workspace", where, "workspace");
  options = optionsObject(options, where);
  switch (name) {
    case "reader":
      return readerTool(workspace);
    case "editor":
      return editorTool(workspace);
    case "bash":
      return bashTool(workspace, options.bash);
    case "search":
      return searchTool(workspace, options.search);
  }
}

/** Checks tool names against {@link ALL_CODING_TOOLS}; unknown names are an InvalidValueError listing the valid ones. */
export function checkCodingToolNames(names: readonly string[]): CodingToolName[] {
  const unknown = names.filter((name) => !(ALL_CODING_TOOLS as readonly string[]).includes(name));
  if (unknown.length)
    throw new InvalidValueError(`unknown coding tool(s): [${unknown.join(", ")}]. Valid: [${ALL_CODING_TOOLS.join(", ")}]`);
  return names as CodingToolName[];
}

type HookMap<H> = Map<string, H[]>;

/**
 * The coding tools (reader, editor, bash, search) with their own hook builders. Hook order
 * differs from the agent factory's: security hooks run wildcard then exact name, but user pre-
 * and post-hooks run EXACT NAME FIRST, then wildcard, and there is no `<name>_tool` alias.
 * `onError` hooks are stored and never run.
 */
export class CodingToolkit {
  readonly workspace: Workspace;
  readonly tools: readonly CodingToolName[];
  readonly notify: boolean;
  readonly #bash: BashToolOptions | undefined;
  readonly #search: SearchToolOptions | undefined;
  readonly #securityPre: HookMap<ToolPreHook> = new Map();
  readonly #pre: HookMap<ToolPreHook> = new Map();
  readonly #post: HookMap<ToolPostHook> = new Map();
  readonly #error: HookMap<ToolErrorHook> = new Map();
  #nudge: NudgeEngine | null = null;

  constructor(options: CodingToolkitOptions = {}) {
    options = optionsObject(options, "new CodingToolkit(options)");
    this.workspace = new Workspace(options.workspaceRoot ?? process.cwd());
    this.tools = checkCodingToolNames(options.tools ?? DEFAULT_CODING_TOOLS);
    this.notify = options.notify ?? true;
    this.#bash = options.bash;
    this.#search = options.search;
  }

  securityPre(toolName: string, handler: ToolPreHook): this {
    push(this.#securityPre, toolName, handler, "securityPre");
    return this;
  }

  pre(toolName: string, handler: ToolPreHook): this {
    push(this.#pre, toolName, handler, "pre");
    return this;
  }

  post(toolName: string, handler: ToolPostHook): this {
    push(this.#post, toolName, handler, "post");
    return this;
  }

  /** Stored and never called. */
  onError(toolName: string, handler: ToolErrorHook): this {
    push(this.#error, toolName, handler, "onError");
    return this;
  }

  /** The error hooks stored for a name (for inspection: nothing runs them). */
  errorHooks(toolName: string): ToolErrorHook[] {
    return [...(this.#error.get(toolName) ?? [])];
  }

  /** The nudge engine `bind` created, if any. */
  get nudge(): NudgeEngine | null {
    return this.#nudge;
  }

  /**
   * The toolkit's Tools for one branch. With `notify`, it first adds the notify post-hook on
   * `*` — so every tool has a postprocessor — and it adds it AGAIN on every further call.
   */
  bind(_branch?: unknown): Tool[] {
    if (this.notify) {
      const engine = (this.#nudge ??= new NudgeEngine());
      this.post("*", notifyPost(engine));
    }
    return this.tools.map((name) => {
      const definition = codingToolDefinition(name, this.workspace, { bash: this.#bash, search: this.#search });
      return new Tool({
        funcCallable: definition.run,
        name,
        description: definition.description,
        requestOptions: definition.requestOptions,
        preprocessor: this.buildPreprocessor(name),
        postprocessor: this.buildPostprocessor(name),
      });
    });
  }

  /** Security: wildcard then exact. User: exact then wildcard. */
  buildPreprocessor(toolName: string): ReturnType<typeof chainPreHooks> {
    return chainPreHooks(
      toolName,
      [...list(this.#securityPre, "*"), ...list(this.#securityPre, toolName)],
      [...list(this.#pre, toolName), ...list(this.#pre, "*")],
    );
  }

  /** Exact then wildcard. */
  buildPostprocessor(toolName: string): ReturnType<typeof chainPostHooks> {
    return chainPostHooks(toolName, [...list(this.#post, toolName), ...list(this.#post, "*")]);
  }

  /** A toolkit needs a branch: use `bind(branch)`. */
  toTool(): never {
    throw new NotSupportedError("CodingToolkit requires branch context. Use toolkit.bind(branch) instead.");
  }
}

/** The post-hook `bind` adds: records each outcome and, on a reminder, sets `result.system`. */
function notifyPost(engine: NudgeEngine): ToolPostHook {
  return function notifyPost(toolName: string, action: string, _args: ToolArgs, result: ToolArgs): ToolArgs {
    try {
      const success = ownValue(result, "success");
      const ok = success !== undefined ? Boolean(success) : ownValue(result, "returnCode") === 0;
      engine.record(toolName, action, ok);
      const status = engine.evaluate();
      if (status && isPlainObject(result)) result["system"] = status;
    } catch {
      // A hostile result must not break the call.
    }
    return result;
  };
}

function push<H>(map: HookMap<H>, key: string, handler: H, method: string): void {
  requireName(key, `CodingToolkit.${method}(toolName, handler)`, "toolName");
  requireFunction(handler, `CodingToolkit.${method}(toolName, handler)`, "handler");
  const existing = map.get(key);
  if (existing) existing.push(handler);
  else map.set(key, [handler]);
}

function list<H>(map: HookMap<H>, key: string): H[] {
  return map.get(key) ?? [];
}
