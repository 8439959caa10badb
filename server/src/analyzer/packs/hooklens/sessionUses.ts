import { Node, SyntaxKind, type NewExpression } from "ts-morph";
import { bindingOf, shorthandValueBinding, type Binding } from "../../engine/bindings.js";
import { isWriteTarget, outermostWrapper, unwrapped } from "../../engine/expressions.js";
import { branchVariableOf } from "./branchToolUse.js";
import { FileIndex } from "../../engine/fileIndex.js";
import type { RuntimeResolver } from "./runtimeResolver.js";
import { scopeOf, type Scope } from "../../engine/scopes.js";

/** Which branches a call names: variables (by what their names refer to), all of the session's own, or unknown. */
export type BranchRefs = { kind: "named"; bindings: Binding[] } | { kind: "all" } | { kind: "unknown" };

/** What one mention of a tracked Session does, as far as its HookBus is concerned. */
export type SessionUse =
  /**
   * Includes branches: `newBranch()`, `includeBranches()`, or the constructor's branch options.
   * `values` are the expressions that denote the included branches (a shorthand property for `{ branch }`).
   */
  | { kind: "include"; node: Node; label: string; branches: BranchRefs; single: boolean; values: Node[] }
  /** Creates the bus (or reads it): `session.hooks`, `routeMessagePersistence(session, branch)`. */
  | { kind: "createBus"; node: Node; label: string; attaches: BranchRefs | null }
  /** Hands the session to code we cannot see, which might create the bus. */
  | { kind: "escape"; node: Node }
  /** Assigns another value to the variable or property. */
  | { kind: "reassign"; node: Node };

/** A runtime Session created in a scope with `new`, and every mention of it, in source order. */
export interface TrackedSession {
  /** How the code names it: `session`, `this.session`. */
  name: string;
  scope: Scope;
  uses: SessionUse[];
}

/** Session members that neither include branches nor touch the bus. */
const NEUTRAL_MEMBERS = new Set(["id", "observer", "branches", "defaultBranch", "getBranch", "removeBranch", "observe", "route", "gate", "emit", "authorize"]);

/**
 * The runtime Sessions a scope creates: `const s = new Session(…)` and `this.s = new Session(…)`.
 * Only the runtime's own class counts (through aliases and re-exports); a subclass may override
 * what its members do, so it is left alone.
 */
export function trackedSessions(scope: Scope, runtime: RuntimeResolver): TrackedSession[] {
  const found: TrackedSession[] = [];
  const index = FileIndex.of(scope.getSourceFile());
  // A session is tracked where a declaration or an assignment takes a `new` (through wrappers): start from the `new`s.
  for (const construction of sessionCandidates(index, runtime)) {
    if (scopeOf(construction) !== scope) continue;
    const outer = outermostWrapper(construction);
    const node = outer.getParent();
    if (Node.isVariableDeclaration(node) && node.getInitializer() === outer) {
      const origin = sessionConstruction(node.getInitializer(), runtime);
      const name = node.getNameNode();
      if (origin && Node.isIdentifier(name)) {
        const binding = bindingOf(name);
        const mentions = index.identifiers(name.compilerNode.text, scope).filter((id) => id !== name && refersTo(id, binding));
        found.push(track(name.getText(), scope, origin, mentions, runtime));
      }
    } else if (Node.isBinaryExpression(node) && node.getOperatorToken().getKind() === SyntaxKind.EqualsToken && node.getRight() === outer) {
      const origin = sessionConstruction(node.getRight(), runtime);
      const target = unwrapped(node.getLeft());
      if (origin && Node.isPropertyAccessExpression(target) && target.getExpression().getKind() === SyntaxKind.ThisKeyword) {
        const property = target.getName();
        // Mentions before the assignment in the same scope denote an earlier value.
        const mentions = index
          .wrapped(SyntaxKind.PropertyAccessExpression, (p) => p.name.text === property, scope)
          .filter((p) => p !== target && p.getName() === property && p.getExpression().getKind() === SyntaxKind.ThisKeyword)
          .filter((p) => scopeOf(p) !== scope || p.getStart() > node.getEnd());
        const session = track(`this.${property}`, scope, origin, mentions, runtime);
        session.uses.push(...thisEscapes(scope, node.getEnd(), property, index));
        session.uses.sort((a, b) => a.node.getStart() - b.node.getStart());
        found.push(session);
      }
    }
  }
  return found;
}

/** The `new` expressions of a file that may construct the runtime's Session (syntactically: the class may be an import). */
function sessionCandidates(index: FileIndex, runtime: RuntimeResolver): NewExpression[] {
  return index.wrapped(SyntaxKind.NewExpression, (construction) => runtime.mayDenoteImport(construction.expression));
}

/**
 * The scopes of `scopesIn` (in that order) that may create a runtime Session: only they can hold a
 * tracked session, so the others need no look at all.
 */
export function scopesCreatingSessions(scopes: readonly Scope[], runtime: RuntimeResolver): Scope[] {
  const first = scopes[0];
  if (!first) return [];
  const creating = new Set(sessionCandidates(FileIndex.of(first.getSourceFile()), runtime).map(scopeOf));
  return scopes.filter((scope) => creating.has(scope));
}

function track(name: string, scope: Scope, origin: NewExpression, mentions: Node[], runtime: RuntimeResolver): TrackedSession {
  const uses: SessionUse[] = [];
  const constructed = constructorInclusion(origin);
  if (constructed) uses.push(constructed);
  for (const mention of mentions) {
    const use = classify(mention, name, runtime);
    if (use) uses.push(use);
  }
  uses.sort((a, b) => a.node.getStart() - b.node.getStart());
  return { name, scope, uses };
}

/** The `new Session(…)` an initializer or assigned value is, when it is the runtime's own class. */
function sessionConstruction(value: Node | undefined, runtime: RuntimeResolver): NewExpression | null {
  const inner = value && unwrapped(value);
  return inner && Node.isNewExpression(inner) && runtime.is(inner.getExpression(), "Session") ? inner : null;
}

function refersTo(id: Node, binding: Binding | undefined): boolean {
  if (!binding || !Node.isIdentifier(id)) return false;
  const parent = id.getParent();
  // `{ session }` names the property; the value it takes is the variable.
  if (Node.isShorthandPropertyAssignment(parent)) return shorthandValueBinding(parent) === binding;
  return bindingOf(id) === binding;
}

/** Null for a mention that neither includes, creates nor lets the session go. */
function classify(mention: Node, name: string, runtime: RuntimeResolver): SessionUse | null {
  if (mention.getFirstAncestor(Node.isTypeNode)) return null; // `typeof session` runs nothing
  if (isWriteTarget(mention)) return { kind: "reassign", node: mention };
  const outer = outermostWrapper(mention);
  const parent = outer.getParent();
  if (Node.isPropertyAccessExpression(parent) && parent.getExpression() === outer) {
    const member = parent.getName();
    const call = outermostWrapper(parent).getParent();
    const called = Node.isCallExpression(call) && unwrapped(call.getExpression()) === parent ? call : null;
    if (member === "hooks") return { kind: "createBus", node: parent, label: `reading ${name}.hooks`, attaches: null };
    if (member === "newBranch" && called) {
      return { kind: "include", node: called, label: `${name}.newBranch()`, branches: newBranchResult(called), single: true, values: [called] };
    }
    if (member === "includeBranches" && called) {
      const [first] = called.getArguments();
      const branches: BranchRefs = first ? branchRefs(first, name) : { kind: "unknown" };
      const single = first !== undefined && !Node.isArrayLiteralExpression(unwrapped(first)) && branches.kind === "named";
      return { kind: "include", node: called, label: `${name}.includeBranches()`, branches, single, values: first ? elementsOf(first) : [] };
    }
    return NEUTRAL_MEMBERS.has(member) ? null : { kind: "escape", node: mention };
  }
  if (Node.isCallExpression(parent) && parent.getArguments()[0] === outer && runtime.is(unwrapped(parent.getExpression()), "routeMessagePersistence")) {
    const branch = parent.getArguments()[1];
    return { kind: "createBus", node: parent, label: "routeMessagePersistence()", attaches: branch ? branchRefs(branch, name) : null };
  }
  return { kind: "escape", node: mention };
}

/**
 * `const b = session.newBranch()` names its branch `b`, and so does `const [a, b] = [s.newBranch(),
 * s.newBranch()]` for each element; any other use leaves it unnamed.
 */
function newBranchResult(call: Node): BranchRefs {
  return namedOrUnknown(branchVariableOf(call));
}

/** The expressions an argument lists: the elements of an array literal, or the argument itself. */
function elementsOf(argument: Node): Node[] {
  const value = unwrapped(argument);
  return Node.isArrayLiteralExpression(value) ? value.getElements() : [argument];
}

/** The branches an argument names: `b`, `[a, b]`, or the session's own `session.branches`. */
function branchRefs(argument: Node, sessionName: string): BranchRefs {
  const value = unwrapped(argument);
  if (Node.isPropertyAccessExpression(value) && value.getName() === "branches" && unwrapped(value.getExpression()).getText() === sessionName) return { kind: "all" };
  const items = Node.isArrayLiteralExpression(value) ? value.getElements().map(unwrapped) : [value];
  const bindings = items.map((item) => (Node.isIdentifier(item) ? bindingOf(item) : undefined));
  return bindings.every((b): b is Binding => b !== undefined) ? { kind: "named", bindings } : { kind: "unknown" };
}

/** `new Session({ defaultBranch, branches })` includes those branches before anything else can run. */
function constructorInclusion(origin: NewExpression): SessionUse | null {
  const options = origin.getArguments()[0];
  const object = options && unwrapped(options);
  if (!object || !Node.isObjectLiteralExpression(object)) return null;
  const bindings: Binding[] = [];
  const values: Node[] = [];
  let named = true;
  let includes = false;
  for (const key of ["defaultBranch", "branches"]) {
    const property = object.getProperty(key);
    if (!property) continue;
    includes = true;
    if (Node.isPropertyAssignment(property)) values.push(...elementsOf(property.getInitializerOrThrow()));
    else if (Node.isShorthandPropertyAssignment(property)) values.push(property);
    const refs = Node.isPropertyAssignment(property)
      ? branchRefs(property.getInitializerOrThrow(), "")
      : Node.isShorthandPropertyAssignment(property)
        ? namedOrUnknown(shorthandValueBinding(property))
        : { kind: "unknown" as const };
    if (refs.kind === "named") bindings.push(...refs.bindings);
    else named = false;
  }
  if (!includes) return null;
  const branches: BranchRefs = named ? { kind: "named", bindings } : { kind: "unknown" };
  return { kind: "include", node: origin, label: `new ${origin.getExpression().getText()}({ … })`, branches, single: false, values };
}

function namedOrUnknown(binding: Binding | undefined): BranchRefs {
  return binding ? { kind: "named", bindings: [binding] } : { kind: "unknown" };
}

/**
 * For a session held in `this.<property>`: after the assignment, calling another method on
 * `this` or handing `this` on may reach the session from code we cannot see.
 */
function thisEscapes(scope: Scope, after: number, property: string, index: FileIndex): SessionUse[] {
  const escapes: SessionUse[] = [];
  for (const self of index.thisKeywords(scope)) {
    if (scopeOf(self) === scope && self.getStart() < after) continue;
    const outer = outermostWrapper(self);
    const parent = outer.getParent();
    if (Node.isPropertyAccessExpression(parent) && parent.getExpression() === outer) {
      if (parent.getName() === property) continue; // a mention of the session itself
      const call = outermostWrapper(parent).getParent();
      if (!(Node.isCallExpression(call) && unwrapped(call.getExpression()) === parent)) continue; // reading or writing a field
    }
    escapes.push({ kind: "escape", node: self });
  }
  return escapes;
}
