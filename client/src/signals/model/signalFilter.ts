import { CallGroup, type SignalEntry } from "./callGroup.js";
import type { SessionItem } from "./branchedRows.js";

/**
 * What the Signals view shows: every part must match. Typed as one line in the filter box:
 * `kind:tool.error tool:refund branch:89e1 is:problem free text` (values of one key are
 * alternatives; a branch matches by id prefix; free words must all appear in a row's text).
 */
export interface SignalFilter {
  readonly words: readonly string[];
  readonly kinds: ReadonlySet<string>;
  readonly tools: ReadonlySet<string>;
  readonly branches: ReadonlySet<string>;
  /** Only errors and denials (and the calls that hold them). */
  readonly problemsOnly: boolean;
}

export const NO_FILTER: SignalFilter = { words: [], kinds: new Set(), tools: new Set(), branches: new Set(), problemsOnly: false };

export function isFilterActive(filter: SignalFilter): boolean {
  return filter.words.length > 0 || filter.kinds.size > 0 || filter.tools.size > 0 || filter.branches.size > 0 || filter.problemsOnly;
}

/** Parses the filter box's text; unknown `key:` prefixes are plain words. */
export function parseFilter(text: string): SignalFilter {
  const words: string[] = [];
  const kinds = new Set<string>();
  const tools = new Set<string>();
  const branches = new Set<string>();
  let problemsOnly = false;
  for (const token of text.trim().split(/\s+/).filter(Boolean)) {
    const match = /^(kind|tool|branch|is):(.+)$/i.exec(token);
    const key = match?.[1]?.toLowerCase();
    const value = match?.[2] ?? "";
    if (key === "kind") kinds.add(value);
    else if (key === "tool") tools.add(value);
    else if (key === "branch") branches.add(value.toLowerCase());
    else if (key === "is" && /^(problems?|errors?|denials?)$/i.test(value)) problemsOnly = true;
    else words.push(token.toLowerCase());
  }
  return { words, kinds, tools, branches, problemsOnly };
}

/** The filter as the text {@link parseFilter} reads back. */
export function formatFilter(filter: SignalFilter): string {
  return [
    ...[...filter.kinds].map((kind) => `kind:${kind}`),
    ...[...filter.tools].map((tool) => `tool:${tool}`),
    ...[...filter.branches].map((branch) => `branch:${branch}`),
    ...(filter.problemsOnly ? ["is:problem"] : []),
    ...filter.words,
  ].join(" ");
}

export function withProblemsOnly(filter: SignalFilter, problemsOnly: boolean): SignalFilter {
  return { ...filter, problemsOnly };
}

/** Does this one signal match, on its own? */
export function signalMatches(entry: SignalEntry, filter: SignalFilter): boolean {
  const { facts } = entry;
  if (filter.problemsOnly && facts.problem === null) return false;
  if (filter.kinds.size > 0 && !filter.kinds.has(facts.kindKey) && !filter.kinds.has(entry.frame.kind)) return false;
  if (filter.tools.size > 0 && (facts.toolName === null || !filter.tools.has(facts.toolName))) return false;
  if (filter.branches.size > 0 && !branchMatches(facts.branchId, filter.branches)) return false;
  return filter.words.length === 0 || wordsMatch(searchText(entry), filter.words);
}

/**
 * Does a top-level row match? A call matches when one of its signals does, or when the call as
 * a whole does (its tool, branch, a problem anywhere in it, the words across all its signals);
 * it is then shown whole, so the signals around the interesting one stay in view.
 */
export function itemMatches(item: SessionItem, filter: SignalFilter): boolean {
  if (!(item instanceof CallGroup)) return signalMatches(item, filter);
  return groupMatches(item, filter);
}

function groupMatches(group: CallGroup, filter: SignalFilter): boolean {
  if (filter.problemsOnly && group.errors === 0 && group.denials === 0) return false;
  if (filter.branches.size > 0 && !branchMatches(group.branchId ?? group.shownBranchId, filter.branches)) return false;
  if (filter.tools.size > 0 && !(group.kind === "tool" && filter.tools.has(group.name)) && !group.children.some((child) => groupMatches(child, filter))) return false;
  if (filter.kinds.size > 0 && !someSignal(group, (entry) => filter.kinds.has(entry.facts.kindKey) || filter.kinds.has(entry.frame.kind))) return false;
  if (filter.words.length === 0) return true;
  const text = [group.name, ...allSignals(group).map(searchText)].join("\n");
  return wordsMatch(text, filter.words);
}

function branchMatches(branchId: string | null, branches: ReadonlySet<string>): boolean {
  if (branchId === null) return false;
  const id = branchId.toLowerCase();
  for (const prefix of branches) if (id.startsWith(prefix)) return true;
  return false;
}

function wordsMatch(text: string, words: readonly string[]): boolean {
  return words.every((word) => text.includes(word));
}

/** The text free words are looked for in: the row's words, its kind, tool, call id and problem text. */
function searchText(entry: SignalEntry): string {
  const { facts } = entry;
  return [facts.label, facts.kindKey, entry.frame.kind, facts.toolName ?? "", facts.call?.callId ?? "", facts.detail ?? "", facts.hook ?? ""].join(" ").toLowerCase();
}

function someSignal(group: CallGroup, test: (entry: SignalEntry) => boolean): boolean {
  return group.members.some(test) || group.children.some((child) => someSignal(child, test));
}

function allSignals(group: CallGroup): SignalEntry[] {
  return [...group.members, ...group.children.flatMap(allSignals)];
}
