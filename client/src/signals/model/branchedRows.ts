import { CallGroup, type SignalEntry } from "./callGroup.js";

/** A top-level row of a session (or branch): a call group or a signal that belongs to no call. */
export type SessionItem = CallGroup | SignalEntry;

/** A branch of a session as the grouped tree shows it. */
export interface BranchView {
  readonly branchId: string;
  /** The agent or branch name the session's signals give it, once one did. */
  name: string | null;
  readonly items: SessionItem[];
  errors: number;
  denials: number;
  signals: number;
}

/** A session's rows in grouped order: items without a branch, and each branch where it first appears. */
export interface GroupedView {
  readonly rows: Array<SessionItem | BranchView>;
  readonly branches: ReadonlyMap<string, BranchView>;
}

type MutableView = { rows: Array<SessionItem | BranchView>; branches: Map<string, BranchView> };

/**
 * A session's rows with branches folded in, kept up to date as the session model changes: rows
 * that arrived since the last read are placed, signals joining a placed row update its branch's
 * counts as they come, and evicted rows leave the front of their lists. A redraw of a session of
 * 100,000 signals touches what changed, not every row. A placed call that turns out to run in
 * another branch than the one it was shown in, or an eviction that lifts nested calls out,
 * rebuilds it. Evicted rows' neighbours keep the branch they were shown in (rows never jump).
 */
export class BranchedRows {
  #view: MutableView | null = null;
  #stale = false;
  /** How many of the session's items are in the view (placed in order, from the first). */
  #placed = 0;
  /** The branch of the last row placed: where a call naming no branch is shown. */
  #previousBranch: string | null = null;

  /** `branchName` gives the name a branch is shown with when it first appears. */
  constructor(private readonly branchName: (branchId: string) => string | null) {}

  /** How many items, from the first, the view has placed. */
  get placed(): number {
    return this.#placed;
  }

  /** The view of `items`, placing those that arrived since the last read. */
  read(items: readonly SessionItem[]): GroupedView {
    if (this.#view === null || this.#stale) return this.#build(items);
    const view = this.#view;
    for (; this.#placed < items.length; this.#placed++) this.#place(view, items[this.#placed]!);
    return view;
  }

  /** The next read rebuilds the view from scratch. */
  invalidate(): void {
    this.#stale = true;
  }

  /** A branch got (or changed) its name: the view shows it. */
  renamed(branchId: string, name: string): void {
    const shown = this.#view?.branches.get(branchId);
    if (shown) shown.name = name;
  }

  #build(items: readonly SessionItem[]): GroupedView {
    const view: MutableView = { rows: [], branches: new Map() };
    // Hook signals carry no branch id (branches share the session's bus), so a call none of whose
    // signals names a branch is shown in the branch of the row before it: calls run in branches.
    this.#previousBranch = null;
    for (const item of items) this.#place(view, item);
    this.#view = view;
    this.#stale = false;
    this.#placed = items.length;
    return view;
  }

  #place(view: MutableView, item: SessionItem): void {
    let branchId: string | null;
    if (item instanceof CallGroup) {
      item.shownBranchId = item.branchId ?? this.#previousBranch;
      item.placed = true;
      branchId = item.shownBranchId;
    } else branchId = item.facts.branchId;
    if (branchId === null) {
      view.rows.push(item);
      return;
    }
    let branch = view.branches.get(branchId);
    if (!branch) {
      branch = { branchId, name: this.branchName(branchId), items: [], errors: 0, denials: 0, signals: 0 };
      view.branches.set(branchId, branch);
      view.rows.push(branch);
    }
    this.#previousBranch = branchId;
    branch.items.push(item);
    if (hasProblem(item, "error")) branch.errors++;
    if (hasProblem(item, "denied")) branch.denials++;
    branch.signals += item instanceof CallGroup ? countSignals(item) : 1;
  }

  /** A signal joined `root`'s call, a row the view may already show: its branch's counts follow. */
  rowGrew(root: CallGroup, hadError: boolean, hadDenial: boolean): void {
    if (this.#view === null || this.#stale || !root.placed) return;
    if (root.branchId !== null && root.branchId !== root.shownBranchId) {
      // It was shown in the branch of the rows before it, and now names another one.
      this.#stale = true;
      return;
    }
    const branch = root.shownBranchId === null ? undefined : this.#view.branches.get(root.shownBranchId);
    if (!branch) return;
    branch.signals++;
    if (!hadError && root.errors > 0) branch.errors++;
    if (!hadDenial && root.denials > 0) branch.denials++;
  }

  /**
   * Evicted signals leave the view: `gone` are the placed rows that went (loose signals, emptied
   * calls), `shrunk` the calls that lost signals (with whether they had an error / a denial
   * before, and how many signals they lost); `lifted` when calls nested in an emptied one became rows.
   */
  lost(gone: ReadonlySet<SessionItem>, emptied: ReadonlySet<CallGroup>, shrunk: ReadonlyMap<CallGroup, readonly [boolean, boolean, number]>, lifted: boolean): void {
    this.#removeLost(gone, emptied, shrunk);
    this.#placed -= gone.size;
    if (lifted) this.#stale = true;
  }

  #removeLost(gone: ReadonlySet<SessionItem>, emptied: ReadonlySet<CallGroup>, shrunk: ReadonlyMap<CallGroup, readonly [boolean, boolean, number]>): void {
    const view = this.#view;
    if (view === null || this.#stale) return;
    const fromBranch = new Map<BranchView, number>();
    let fromRows = 0;
    for (const item of gone) {
      const branchId = item instanceof CallGroup ? item.shownBranchId : item.facts.branchId;
      const branch = branchId === null ? undefined : view.branches.get(branchId);
      if (!branch) {
        fromRows++;
        continue;
      }
      fromBranch.set(branch, (fromBranch.get(branch) ?? 0) + 1);
      if (!(item instanceof CallGroup)) {
        branch.signals--;
        if (item.facts.problem === "error") branch.errors--;
        else if (item.facts.problem === "denied") branch.denials--;
      }
    }
    for (const [group, [hadError, hadDenial, lost]] of shrunk) {
      if (!group.placed || group.shownBranchId === null) continue;
      const branch = view.branches.get(group.shownBranchId);
      if (!branch) continue;
      branch.signals -= lost;
      const went = emptied.has(group);
      if (hadError && (went || group.errors === 0)) branch.errors--;
      if (hadDenial && (went || group.denials === 0)) branch.denials--;
    }
    let emptiedBranches = 0;
    for (const [branch, count] of fromBranch) {
      removeLeading(branch.items, gone, count);
      if (branch.items.length === 0) {
        view.branches.delete(branch.branchId);
        emptiedBranches++;
      }
    }
    if (fromRows + emptiedBranches > 0) {
      const leaving = new Set<SessionItem | BranchView>(gone);
      for (const row of view.rows) if (isBranchRow(row) && row.items.length === 0) leaving.add(row);
      removeLeading(view.rows, leaving, fromRows + emptiedBranches);
    }
  }
}

export function hasProblem(item: SessionItem, problem: "error" | "denied"): boolean {
  if (item instanceof CallGroup) return problem === "error" ? item.errors > 0 : item.denials > 0;
  return item.facts.problem === problem;
}

export function countSignals(group: CallGroup): number {
  let count = group.members.length;
  for (const child of group.children) count += countSignals(child);
  return count;
}

/** Removes the first `count` elements of `array` that are in `gone` (they sit near its front: scans only until all are found). */
function removeLeading<T>(array: T[], gone: ReadonlySet<unknown>, count: number): void {
  let kept = 0;
  let scanned = 0;
  for (; scanned < array.length && count > 0; scanned++) {
    const item = array[scanned]!;
    if (gone.has(item)) count--;
    else array[kept++] = item;
  }
  if (kept !== scanned) array.splice(kept, scanned - kept);
}

function isBranchRow(row: SessionItem | BranchView): row is BranchView {
  return "branchId" in row && "items" in row && !(row instanceof CallGroup);
}
