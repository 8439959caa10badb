import { optionsObject, requireInstance, requireMethod, requireName } from "../shared/arguments.js";
import { InvalidValueError } from "../shared/errors.js";
import { Branch } from "../session/branch.js";
import type { ToolLike } from "./actionManager.js";
import { chainPostHooks, chainPreHooks } from "./chains.js";
import { checkCodingToolNames, codingToolDefinition, CodingToolkit, type CodingToolName } from "./coding/toolkit.js";
import { Workspace } from "./coding/workspace.js";
import type { ToolHook, ToolPostHook, ToolPreHook } from "./hookTypes.js";
import { PermissionPolicy } from "./permissions.js";
import { AgentSpec, HooksMixin } from "./spec.js";
import { Tool } from "./tool.js";

/** Anything tools can be registered on: a Branch, or an ActionManager. */
export interface ToolHost {
  registerTools(tools: ToolLike | readonly ToolLike[]): unknown;
}

/** The hook phases a spec's keys use. */
export type HookPhase = "security_pre" | "pre" | "post" | "error";

const STANDALONE_TOOLS: readonly CodingToolName[] = ["reader", "editor", "bash", "search"];
const PHASES: readonly HookPhase[] = ["security_pre", "pre", "post", "error"];

/** The checks every factory function makes of what a JavaScript caller handed it. */
function checkSpec(spec: unknown, where: string): AgentSpec {
  return requireInstance(spec, AgentSpec, "an AgentSpec", where, "spec");
}
function checkHost(host: unknown, where: string): ToolHost {
  return requireMethod(host, where, "host (a Branch or an ActionManager)", "registerTools") as ToolHost;
}
function checkHooksAndName(spec: unknown, toolName: unknown, where: string): void {
  requireInstance(spec, HooksMixin, "an AgentSpec (or another HooksMixin)", where, "spec");
  requireName(toolName, where, "toolName");
}

/**
 * The hooks declared for one tool and phase, in factory order: wildcard `*` first, then the
 * exact name, then the `<name>_tool` compatibility alias.
 */
export function toolHooks(spec: HooksMixin, phase: HookPhase, toolName: string): ToolHook[] {
  checkHooksAndName(spec, toolName, "toolHooks(spec, phase, toolName)");
  if (!PHASES.includes(phase)) {
    throw new InvalidValueError(`toolHooks(spec, phase, toolName): phase must be one of ${PHASES.join(", ")}, got ${JSON.stringify(phase) ?? String(phase)}`);
  }
  return [...spec.handlersFor(`${phase}:*`), ...spec.handlersFor(`${phase}:${toolName}`), ...spec.handlersFor(`${phase}:${toolName}_tool`)];
}

/**
 * Sets a Tool's preprocessor from the spec's `security_pre` and `pre` hooks and its
 * postprocessor from its `post` hooks (each only when there is at least one). `error` hooks are
 * not attached: a Tool has nowhere to put them.
 */
export function attachHooks(tool: Tool, spec: HooksMixin, toolName: string): Tool {
  requireInstance(tool, Tool, "a Tool", "attachHooks(tool, spec, toolName)", "tool");
  checkHooksAndName(spec, toolName, "attachHooks(tool, spec, toolName)");
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
  checkSpec(spec, "applyPermissions(spec)");
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
  checkHost(host, "registerCodingTools(host, spec)");
  checkSpec(spec, "registerCodingTools(host, spec)");
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
  checkHost(host, "registerAgentTools(host, spec)");
  checkSpec(spec, "registerAgentTools(host, spec)");
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
  checkHost(host, "loadMcpTools(host, spec)");
  checkSpec(spec, "loadMcpTools(host, spec)");
  const tools: Tool[] = [];
  for (const [serverName, server] of Object.entries(spec.mcpServers)) {
    requireMethod(server, "loadMcpTools(host, spec)", `spec.mcpServers[${JSON.stringify(serverName)}] (an MCP client)`, "listTools");
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
  checkHost(host, "equipAgent(host, spec)");
  checkSpec(spec, "equipAgent(host, spec)");
  applyPermissions(spec);
  registerAgentTools(host, spec);
  await loadMcpTools(host, spec);
  return host;
}

/** Builds an agent's Branch (or equips the one given) with {@link equipAgent}. */
export async function createAgent(spec: AgentSpec, options: { branch?: Branch } = {}): Promise<Branch> {
  checkSpec(spec, "createAgent(spec, options)");
  options = optionsObject(options, "createAgent(spec, options)");
  if (options.branch !== undefined) requireInstance(options.branch, Branch, "a Branch", "createAgent(spec, options)", "options.branch");
  return equipAgent(options.branch ?? new Branch({ name: spec.name }), spec);
}
