import type { Binding } from "../../../engine/bindings.js";
import { branchesRunTools } from "../branchToolUse.js";
import { clip } from "../../../engine/headline.js";
import { runsAfterDefinition, scopeOf, scopesIn } from "../../../engine/scopes.js";
import { scopesCreatingSessions, trackedSessions, type BranchRefs, type SessionUse, type TrackedSession } from "../sessionUses.js";
import type { Rule } from "../facts.js";
import { startLineOf } from "../../../engine/lineNumbers.js";

type Include = Extract<SessionUse, { kind: "include" }>;
type CreateBus = Extract<SessionUse, { kind: "createBus" }>;

export const branchBeforeBus: Rule = {
  code: "HL005",
  name: "branch-before-bus",
  defaultSeverity: "warning",
  summary: "Branches included before a Session's HookBus exists never get it, so its tool hooks never see their calls.",
  check(context) {
    for (const scope of scopesCreatingSessions(scopesIn(context.sourceFile), context.facts.runtime)) {
      for (const session of trackedSessions(scope, context.facts.runtime)) {
        const trap = findTrap(session, (include) => branchesRunTools(include.values, context.facts.runtime));
        if (!trap) continue;
        const { include, createBus } = trap;
        const { name } = session;
        const [noun, these, them] = include.single ? ["a branch", "this branch", "it"] : ["branches", "these branches", "them"];
        context.report({
          start: include.node.getStart(),
          end: include.node.getEnd(),
          message: include.single
            ? `Branch included before ${clip(name, 20)}.hooks exists: tool hooks never see its act() calls`
            : `Branches included before ${clip(name, 20)}.hooks exists: tool hooks never see their act() calls`,
          explanation:
            `${include.label} includes ${noun} before ${name}'s HookBus exists; ` +
            `the bus is first created on line ${startLineOf(createBus.node)} (${createBus.label}). ` +
            "A Session attaches its bus only to branches included after it exists and never backfills earlier ones, " +
            `so act() on ${these} never reaches the TOOL_PRE/TOOL_POST/TOOL_ERROR handlers on ${name}.hooks. ` +
            `Read ${name}.hooks before including branches, or include ${them} again once the bus exists.`,
        });
      }
    }
  },
};

/** Whether every function between a use and the session's scope is an arrow or function expression. */
function onlyClosuresBetween(use: SessionUse, session: TrackedSession): boolean {
  for (let scope = scopeOf(use.node); scope !== session.scope; scope = scopeOf(scope)) {
    if (!runsAfterDefinition(scope)) return false;
  }
  return true;
}

/**
 * Walks the session's uses in order. Before the bus exists, inclusions are collected and anything
 * we cannot follow (code elsewhere that might create the bus first) ends the analysis without a
 * finding. After it exists, branches included again or routed count as repaired. Of the early
 * inclusions left, the first whose branches run tools in this file is the trap: a branch that
 * never calls a tool loses nothing by missing the bus's tool hooks.
 */
function findTrap(session: TrackedSession, runsTools: (include: Include) => boolean): { include: Include; createBus: CreateBus } | null {
  let createBus: CreateBus | null = null;
  const early: Include[] = [];
  const repaired = new Set<Binding>();
  let repairedAll = false;
  const repair = (refs: BranchRefs | null) => {
    if (refs?.kind === "all") repairedAll = true;
    else if (refs?.kind === "named") for (const binding of refs.bindings) repaired.add(binding);
  };
  for (const use of session.uses) {
    if (use.kind === "reassign") return null;
    if (scopeOf(use.node) !== session.scope) {
      // Another function: unknowable when it runs, unless it is created after the bus exists.
      if (createBus === null || !onlyClosuresBetween(use, session)) return null;
      continue;
    }
    if (createBus === null) {
      if (use.kind === "escape") return null;
      if (use.kind === "include" && use.branches.kind !== "all") early.push(use);
      if (use.kind === "createBus") {
        createBus = use;
        repair(use.attaches);
      }
    } else if (use.kind === "include") repair(use.branches);
    else if (use.kind === "createBus") repair(use.attaches);
  }
  if (createBus === null) return null;
  if (repairedAll) return null;
  const missed = early.find((use) => !(use.branches.kind === "named" && use.branches.bindings.every((b) => repaired.has(b))) && runsTools(use));
  return missed ? { include: missed, createBus } : null;
}
