import { Project, ts } from "ts-morph";
import { describe, expect, it } from "vitest";
import { FileIndex } from "../../server/src/analyzer/engine/fileIndex.js";
import { isNamePosition, soleBinding } from "../../server/src/analyzer/engine/soleBinding.js";
import { createFixture } from "../helpers/fixtureProject.js";

/** Files whose every name syntax must place as the checker does, or leave to it. */
const CASES: Record<string, string> = {
  scopes: `import { HookBus as Bus } from "@hooklens/runtime";
import * as rt from "@hooklens/runtime";
const bus = new Bus();
export function first(session: { hooks: unknown }, { toolName, args: [head, ...rest] }: { toolName: string; args: unknown[] }) {
  const bus = session.hooks;
  try { void toolName; } catch (bus) { void bus; }
  for (const session of [1, 2]) void session;
  return [bus, head, rest, rt];
}
export class Counter { n = 0; count(n: number) { const Counter = n; return Counter + this.n; } }
const make = function named(depth: number): number { return depth ? named(depth - 1) : 0; };
const Holder = class Inner { static self() { return Inner; } };
switch (bus as unknown) { case 1: { const bus = 2; void bus; break; } case 2: const local = 3; void local; }
export function helper() { return helper; }
{ function blockScoped() { return 1; } void blockScoped; }
export const result = [first, make, Holder, new Counter(), bus];
const value = 1;
export function shadows(value: string) { return value; }
export const outer = value;
`,
  unplaced: `var hoisted = 1;
export function f() { if (hoisted) { var inner = 2; } return inner; }
export function overload(x: string): string;
export function overload(x: number): number;
export function overload(x: unknown) { return x; }
enum Kind { A }
namespace Space { export const v = 1; }
interface Merged { a: number }
class Merged { b = 1; }
export function g<T>(value: T) { return [value, Kind.A, Space.v, new Merged(), overload(1)]; }
function twice() { return 1; }
function twice2() { return twice(); }
export const out = twice2;
`,
  script: `function outer() { { function hidden() { return 1; } } return hidden(); }
outer();
`,
};

/** How many references of each case syntax places (the rest it leaves to the checker). */
const PLACED: Record<string, number> = { scopes: 27, unplaced: 4, script: 1 };

describe("soleBinding places a name as the checker's binder does", () => {
  it.each(Object.keys(CASES))("%s", (name) => {
    const fixture = createFixture();
    try {
      const path = fixture.write(`${name}.ts`, CASES[name]!);
      const project = new Project({ tsConfigFilePath: fixture.path("tsconfig.json"), skipAddingFilesFromTsConfig: true });
      const file = project.addSourceFileAtPath(path);
      const checker = project.getTypeChecker().compilerObject;
      const index = FileIndex.of(file);
      const references: ts.Identifier[] = [];
      const visit = (node: ts.Node): void => {
        if (ts.isIdentifier(node) && !isNamePosition(node)) references.push(node);
        node.forEachChild(visit);
      };
      visit(file.compilerNode);
      let placed = 0;
      const differ = references.flatMap((id) => {
        const bySyntax = soleBinding(id, index.rawIdentifiers(id.text));
        if (bySyntax === undefined) return [];
        placed++;
        const byChecker = checker.getSymbolAtLocation(id)?.declarations?.[0];
        return bySyntax === byChecker ? [] : [`${id.text} at ${id.getStart()}`];
      });
      expect(differ).toEqual([]);
      expect(placed).toBe(PLACED[name]);
    } finally {
      fixture.dispose();
    }
  });
});
