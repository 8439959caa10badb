import type { ts } from "ts-morph";

/** What a type checker was asked while a spy was on it: every call, and the nodes passed to it. */
export interface CheckerQuestions {
  calls: number;
  nodes: ts.Node[];
  /** Puts the checker's own methods back. */
  restore(): void;
}

/**
 * Counts every call made to a TypeScript type checker through its methods (what ts-morph and the
 * rules call; the checker's own work inside a call is not counted) and keeps the nodes asked about.
 */
export function spyOnChecker(checker: ts.TypeChecker): CheckerQuestions {
  const target = checker as unknown as Record<string, unknown>;
  const questions: CheckerQuestions = { calls: 0, nodes: [], restore: () => undefined };
  const originals = new Map<string, (...args: unknown[]) => unknown>();
  for (const [name, value] of Object.entries(target)) {
    if (typeof value !== "function") continue;
    const original = value as (...args: unknown[]) => unknown;
    originals.set(name, original);
    target[name] = function (this: unknown, ...args: unknown[]) {
      questions.calls++;
      for (const arg of args) if (isNode(arg)) questions.nodes.push(arg);
      return original.apply(this, args);
    };
  }
  questions.restore = () => {
    for (const [name, original] of originals) target[name] = original;
  };
  return questions;
}

function isNode(value: unknown): value is ts.Node {
  return typeof value === "object" && value !== null && typeof (value as { kind?: unknown }).kind === "number" && typeof (value as { getSourceFile?: unknown }).getSourceFile === "function";
}
