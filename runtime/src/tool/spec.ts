import { optionsObject, requireFunction, requireName, requireObject, requireStrings } from "../shared/arguments.js";
import type { PermissionPolicy } from "./permissions.js";
import type { ToolErrorHook, ToolHook, ToolPostHook, ToolPreHook } from "./hookTypes.js";
import { guardDestructive, guardPaths } from "./guards.js";
import type { McpClient } from "./tool.js";

/**
 * Declares Tool hooks by key: `pre:<tool>`, `post:<tool>` and `error:<tool>` (`*` for every
 * tool). Each call appends and returns the same object, so calls chain. Keys are not checked
 * here; the factory decides what runs (and `error:` hooks never do). A JavaScript caller that
 * passes something other than a name and a function is told so at once.
 */
export class HooksMixin {
  readonly hookHandlers = new Map<string, ToolHook[]>();

  pre(toolName: string, handler: ToolPreHook): this {
    return this.#add("pre", toolName, handler);
  }

  post(toolName: string, handler: ToolPostHook): this {
    return this.#add("post", toolName, handler);
  }

  /** Stored under `error:<tool>`. Registration is not execution: no code path calls it. */
  onError(toolName: string, handler: ToolErrorHook): this {
    return this.#add("onError", toolName, handler);
  }

  /** The handlers under one key (a copy; empty when none). */
  handlersFor(key: string): ToolHook[] {
    return [...(this.hookHandlers.get(key) ?? [])];
  }

  #add(method: "pre" | "post" | "onError", toolName: string, handler: ToolHook): this {
    const where = `${this.constructor.name}.${method}(toolName, handler)`;
    requireName(toolName, where, "toolName");
    requireFunction(handler, where, "handler");
    const key = `${method === "onError" ? "error" : method}:${toolName}`;
    const list = this.hookHandlers.get(key);
    if (list) list.push(handler);
    else this.hookHandlers.set(key, [handler]);
    return this;
  }
}

export interface AgentSpecOptions {
  name?: string;
  /** Tool names: "coding" for the CodingToolkit, or "reader", "editor", "bash", "search" standalone. */
  tools?: readonly string[];
  /** A PermissionPolicy becomes the first security pre-hook for every tool; anything else is ignored. */
  permissions?: PermissionPolicy | null;
  /** The workspace root the tools are confined to; defaults to the process's working directory. */
  cwd?: string | null;
  /** MCP servers whose tools are registered after the agent's own tools (and so get no hooks). */
  mcpServers?: Readonly<Record<string, McpServer>>;
  /** Whether the coding toolkit adds its notify post-hook (default true). */
  notify?: boolean;
}

/** An MCP server: a client plus the tools it lists. */
export interface McpServer extends McpClient {
  listTools(): Promise<readonly McpToolInfo[]> | readonly McpToolInfo[];
}

export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

/** What an agent is: its tools, permissions, workspace and hook declarations. */
export class AgentSpec extends HooksMixin {
  name: string | null;
  tools: string[];
  permissions: PermissionPolicy | null;
  cwd: string | null;
  mcpServers: Readonly<Record<string, McpServer>>;
  notify: boolean;

  constructor(options: AgentSpecOptions = {}) {
    const where = "new AgentSpec(options)";
    options = optionsObject(options, where);
    // A string here would be spread into letters and fail later as unknown tools "c", "o", …
    if (options.tools !== undefined) requireStrings(options.tools, where, "options.tools");
    if (options.mcpServers !== undefined) requireObject(options.mcpServers, where, "options.mcpServers");
    super();
    this.name = options.name ?? null;
    this.tools = [...(options.tools ?? [])];
    this.permissions = options.permissions ?? null;
    this.cwd = options.cwd ?? null;
    this.mcpServers = options.mcpServers ?? {};
    this.notify = options.notify ?? true;
  }

  /**
   * A coding agent: the "coding" toolkit. With `secure` (the default) it declares user pre-hooks
   * (not security pre-hooks): `guardDestructive` on bash, and one `guardPaths` closure confined
   * to the workspace on both reader and editor.
   */
  static coding(options: Omit<AgentSpecOptions, "tools"> & { secure?: boolean } = {}): AgentSpec {
    const { secure = true, ...rest } = options;
    const spec = new AgentSpec({ name: "implementer", ...rest, tools: ["coding"] });
    if (secure) {
      spec.pre("bash", guardDestructive);
      const pathGuard = guardPaths({ allowedPaths: [spec.cwd ?? process.cwd()] });
      spec.pre("reader", pathGuard);
      spec.pre("editor", pathGuard);
    }
    return spec;
  }
}
