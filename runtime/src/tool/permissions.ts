import { optionsObject } from "../shared/arguments.js";
import { InvalidValueError } from "../shared/errors.js";
import { PermissionError } from "./errors.js";
import { fnmatch } from "./fnmatch.js";
import { isPlainObject, ownValue, type ToolArgs } from "./objects.js";

export type PermissionMode = "allow_all" | "deny_all" | "rules";
export type PermissionBehavior = "allow" | "deny" | "escalate";
/** Patterns per tool name (`*` for every tool), matched with shell-style wildcards. */
export type PermissionRules = Readonly<Record<string, readonly string[]>>;

/** The outcome of one check. */
export interface PermissionDecision {
  behavior: PermissionBehavior;
  toolName: string;
  action: string;
  reason: string;
  matchedRule: string | null;
}

/**
 * Decides an escalated call: `true` allows it, an object allows it with that object as the new
 * arguments, anything else refuses it. May be async.
 */
export type EscalationHandler = (decision: PermissionDecision, args: ToolArgs) => unknown;

export interface PermissionPolicyOptions {
  mode?: PermissionMode;
  allow?: PermissionRules;
  deny?: PermissionRules;
  escalate?: PermissionRules;
  onEscalate?: EscalationHandler | null;
}

/** The registration names of the standalone tools, folded onto their canonical names. */
const TOOL_ALIASES: Readonly<Record<string, string>> = {
  reader_tool: "reader",
  editor_tool: "editor",
  bash_tool: "bash",
  search_tool: "search",
};
const MODES: readonly PermissionMode[] = ["allow_all", "deny_all", "rules"];
/** Anything that chains, pipes, backgrounds, redirects or substitutes in a shell command. */
const SHELL_CONTROL = /[;&|`<>\n\r]|\$\(/;

/**
 * A tool permission policy. `allow_all` and `deny_all` decide at once; `rules` builds a match
 * string from the call and tries the deny patterns (the tool's, then `*`), then allow, then
 * escalate; no match is a deny. {@link toPreHook} turns it into a security pre-hook.
 */
export class PermissionPolicy {
  readonly mode: PermissionMode;
  readonly allow: ReadonlyMap<string, readonly string[]>;
  readonly deny: ReadonlyMap<string, readonly string[]>;
  readonly escalate: ReadonlyMap<string, readonly string[]>;
  onEscalate: EscalationHandler | null;

  constructor(options: PermissionPolicyOptions = {}) {
    options = optionsObject(options, "new PermissionPolicy(options)");
    const mode = options.mode ?? "allow_all";
    if (!MODES.includes(mode)) throw new InvalidValueError(`Unknown permission mode ${JSON.stringify(mode)}; valid: ${MODES.join(", ")}`);
    this.mode = mode;
    this.allow = normaliseRules(options.allow);
    this.deny = normaliseRules(options.deny);
    this.escalate = normaliseRules(options.escalate);
    this.onEscalate = options.onEscalate ?? null;
  }

  /** Reader, search and context allowed; editor and bash denied. */
  static readOnly(options: Pick<PermissionPolicyOptions, "onEscalate"> = {}): PermissionPolicy {
    return new PermissionPolicy({
      ...options,
      mode: "rules",
      allow: { reader: ["*"], search: ["*"], context: ["*"] },
      deny: { editor: ["*"], bash: ["*"] },
    });
  }

  /** Reader, editor, search and context allowed; dangerous bash denied; every other bash command escalated. */
  static safe(options: Pick<PermissionPolicyOptions, "onEscalate"> = {}): PermissionPolicy {
    return new PermissionPolicy({
      ...options,
      mode: "rules",
      allow: { reader: ["*"], editor: ["*"], search: ["*"], context: ["*"] },
      deny: { bash: ["rm *", "sudo *", "chmod *", "kill *", "mkfs *"] },
      escalate: { bash: ["*"] },
    });
  }

  check(toolName: string, action: string, args: ToolArgs): PermissionDecision {
    const decide = (behavior: PermissionBehavior, reason: string, matchedRule: string | null = null): PermissionDecision => ({
      behavior,
      toolName,
      action,
      reason,
      matchedRule,
    });
    if (this.mode === "allow_all") return decide("allow", "mode allow_all");
    if (this.mode === "deny_all") return decide("deny", "mode deny_all");
    // A call from plain JavaScript may carry anything: with no arguments to match, no rule can vouch for it.
    if (!isPlainObject(args)) return decide("deny", "the call's arguments are not an object, so no rule can be matched");
    const subject = matchSubject(toolName, action, args);
    if (subject.controlOperator) return decide("deny", `Shell control operator requires explicit approval: ${subject.text}`);
    for (const [behavior, rules] of [
      ["deny", this.deny],
      ["allow", this.allow],
      ["escalate", this.escalate],
    ] as const) {
      const rule = firstMatch(rules, toolName, subject.text);
      if (rule !== null) return decide(behavior, `matched ${behavior} rule '${rule}'`, rule);
    }
    return decide("deny", "no matching rule, default deny");
  }

  /** The policy as a security pre-hook: allow passes, escalate asks `onEscalate`, deny throws PermissionError. */
  toPreHook(): (toolName: string, action: string, args: ToolArgs) => Promise<ToolArgs | undefined> {
    const permissionCheck = async (toolName: string, action: string, args: ToolArgs): Promise<ToolArgs | undefined> => {
      const decision = this.check(toolName, action, args);
      const label = action ? `${toolName}.${action}` : toolName;
      if (decision.behavior === "allow") return undefined;
      if (decision.behavior === "escalate") {
        const verdict = this.onEscalate ? await this.onEscalate(decision, args) : undefined;
        if (verdict === true) return undefined;
        if (isPlainObject(verdict)) return verdict;
        throw new PermissionError(`Permission escalation required for ${label}: ${decision.reason}. No escalation handler configured.`);
      }
      throw new PermissionError(`Permission denied for ${label}: ${decision.reason}`);
    };
    return permissionCheck;
  }
}

function normaliseRules(rules: PermissionRules | undefined): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (const [tool, patterns] of Object.entries(rules ?? {})) {
    const name = TOOL_ALIASES[tool] ?? tool;
    out.set(name, [...(out.get(name) ?? []), ...patterns]);
  }
  return out;
}

function matchSubject(toolName: string, action: string, args: ToolArgs): { text: string; controlOperator: boolean } {
  const field = (key: string): string => {
    const value = ownValue(args, key);
    return value === undefined || value === null ? "" : String(value);
  };
  switch (toolName) {
    case "bash": {
      const command = field("command");
      return { text: command, controlOperator: SHELL_CONTROL.test(command) };
    }
    case "editor":
      return { text: field("filePath"), controlOperator: false };
    case "reader":
      return { text: field("path"), controlOperator: false };
    case "search":
      return { text: `${field("pattern")} ${field("path")}`, controlOperator: false };
    default: {
      const values = Object.keys(args)
        .filter((key) => key !== "action")
        .map(field);
      return { text: [action, ...values].join(" "), controlOperator: false };
    }
  }
}

function firstMatch(rules: ReadonlyMap<string, readonly string[]>, toolName: string, subject: string): string | null {
  for (const key of [toolName, "*"]) {
    for (const pattern of rules.get(key) ?? []) if (fnmatch(subject, pattern)) return pattern;
  }
  return null;
}
