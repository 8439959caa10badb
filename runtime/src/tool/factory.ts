import { InvalidValueError } from "../shared/errors.js";
import { Branch } from "../session/branch.js";
import type { ToolLike } from "./actionManager.js";
import { chainPostHooks, chainPreHooks } from "./chains.js";
import { checkCodingToolNames, codingToolDefinition, CodingToolkit, type CodingToolName } from "./coding/toolkit.js";
import { Workspace } from "./coding/workspace.js";
import type { ToolHook, ToolPostHook, ToolPreHook } from "./hookTypes.js";
import { PermissionPolicy } from "./permissions.js";
import type { AgentSpec, HooksMixin } from "./spec.js";
import { Tool } from "./tool.js";

/** Anything tools can be registered on: a Branch, or an ActionManager. */
export interface ToolHost {
  registerTools(tools: ToolLike | readonly ToolLike[]): unknown;
}

/** The hook phases a spec's keys use. */
export type HookPhase = "security_pre" | "pre" | "post" | "error";

const STANDALONE_TOOLS: readonly CodingToolName[] = ["reader", "editor", "bash", "search"];

/**
 * The hooks declared for one tool and phase, in factory order: wildcard `*` first, then the
 * exact name, then the `<name>_tool` compatibility alias.
 */
export function toolHooks(spec: HooksMixin, phase: HookPhase, toolName: string): ToolHook[] {
  return [...spec.handlersFor(`${phase}:*`), ...spec.handlersFor(`${phase}:${toolName}`), ...spec.handlersFor(`${phase}:${toolName}_tool`)];
}

/**
 * Sets a Tool's preprocessor from the spec's `security_pre` and `pre` hooks and its
 * postprocessor from its `post` hooks (each only when there is at least one). `error` hooks are
 * not attached: a Tool has nowhere to put them.
 */
export function attachHooks(tool: Tool, spec: HooksMixin, toolName: string): Tool {
  const pre = chainPreHooks(
    toolName,
    toolHooks(spec, "security_pre", toolName) as ToolPreHook[],
    toolHooks(spec, "pre", toolName) as ToolPreHook[],
  );
  const post = chainPostHooks(toolName, toolHooks(spec, "post", toolName) as ToolPostHook[]);
  if (pre) tool.preprocessor = pre;
  if (post) tool.postprocessor = post;
  return tool;
}

/** Puts the spec's PermissionPolicy first among the `security_pre:*` hooks. Anything else in `permissions` is ignored. */
export function applyPermissions(spec: AgentSpec): void {
  if (!(spec.permissions instanceof PermissionPolicy)) return;
  const list = spec.hookHandlers.get("security_pre:*") ?? [];
  list.unshift(spec.permissions.toPreHook());
  spec.hookHandlers.set("security_pre:*", list);
}

/**
 * Builds a CodingToolkit from the spec — every `phase:tool` key copied in insertion order to
 * `securityPre`/`pre`/`post` (keys without a colon and other phases are skipped) — and registers
 * `toolkit.bind(branch)` on the host. The as-built factory also copied `error:` hooks into the
 * toolkit's `onError`, where nothing ever runs them; this toolkit is never handed out, so they are
 * not copied at all, with the same effect: a spec's error hooks never run.
 */
export function registerCodingTools(host: ToolHost, spec: AgentSpec): Tool[] {
  const toolkit = new CodingToolkit({ workspaceRoot: spec.cwd ?? process.cwd(), notify: spec.notify });
  for (const [key, handlers] of spec.hookHandlers) {
    const colon = key.indexOf(":");
    if (colon < 0) continue;
    const phase = key.slice(0, colon);
    const toolName = key.slice(colon + 1);
    for (const handler of handlers) {
      if (phase === "security_pre") toolkit.securityPre(toolName, handler as ToolPreHook);
      else if (phase === "pre") toolkit.pre(toolName, handler as ToolPreHook);
      else if (phase === "post") toolkit.post(toolName, handler as ToolPostHook);
    }
  }
  const tools = toolkit.bind(host);
  host.registerTools(tools);
  return tools;
}

/**
 * A standalone coding tool as the factory registers it: under `<name>_tool`, with the spec's hooks
 * attached under the canonical name.
 */
export function standaloneTool(toolName: string, spec: AgentSpec): Tool {
  const [name] = checkCodingToolNames([toolName]);
  const definition = codingToolDefinition(name!, new Workspace(spec.cwd ?? process.cwd()));
  const tool = new Tool({
    funcCallable: definition.run,
    name: `${name}_tool`,
    description: definition.description,
    requestOptions: definition.requestOptions,
  });
  return attachHooks(tool, spec, name!);
}

/** Registers the spec's tools: "coding" as the toolkit, the standalone names one by one. Unknown names throw. */
export function registerAgentTools(host: ToolHost, spec: AgentSpec): Tool[] {
  const registered: Tool[] = [];
  for (const name of spec.tools) {
    if (name === "coding") registered.push(...registerCodingTools(host, spec));
    else if ((STANDALONE_TOOLS as readonly string[]).includes(name)) {
      const tool = standaloneTool(name, spec);
      host.registerTools([tool]);
      registered.push(tool);
    } else throw new InvalidValueError(`Unknown agent tool ${JSON.stringify(name)}; valid: coding, ${STANDALONE_TOOLS.join(", ")}`);
  }
  return registered;
}

/**
 * Registers the tools of the spec's MCP servers. This runs after the agent's own tools are built,
 * so these tools get NO hooks: no permission check, no guard, no post-hook.
 */
export async function loadMcpTools(host: ToolHost, spec: AgentSpec): Promise<Tool[]> {
  const tools: Tool[] = [];
  for (const server of Object.values(spec.mcpServers)) {
    for (const info of await server.listTools()) {
      const config = {
        client: server,
        ...(info.description !== undefined ? { description: info.description } : {}),
        ...(info.inputSchema ? { inputSchema: info.inputSchema } : {}),
      };
      tools.push(new Tool({ mcpConfig: { [info.name]: config } }));
    }
  }
  if (tools.length) host.registerTools(tools);
  return tools;
}

/**
 * Equips a host (usually a Branch) as the spec describes, in the as-built order: the permission
 * policy becomes the first security pre-hook, the agent's tools are registered with their hook
 * chains, and then the MCP tools are registered — without hooks.
 */
export async function equipAgent<H extends ToolHost>(host: H, spec: AgentSpec): Promise<H> {
  applyPermissions(spec);
  registerAgentTools(host, spec);
  await loadMcpTools(host, spec);
  return host;
}

/** Builds an agent's Branch (or equips the one given) with {@link equipAgent}. */
export async function createAgent(spec: AgentSpec, options: { branch?: Branch } = {}): Promise<Branch> {
  return equipAgent(options.branch ?? new Branch({ name: spec.name }), spec);
}
