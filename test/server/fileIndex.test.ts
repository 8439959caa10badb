import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Node, Project, SyntaxKind, type SourceFile } from "ts-morph";
import { describe, expect, it } from "vitest";
import { FileIndex } from "../../server/src/analyzer/engine/fileIndex.js";
import { REPO_ROOT } from "../helpers/fixtureProject.js";

/**
 * The file index must hand rules exactly what ts-morph's own walks gave them (same nodes, same
 * order), or rule behaviour would change with the speed-up. Checked against those walks on every
 * source file of the runtime and the examples, and on cases with JSDoc links and `this` types,
 * which ts-morph reaches through getChildren rather than forEachChild.
 */
const KINDS = [SyntaxKind.CallExpression, SyntaxKind.NewExpression, SyntaxKind.PropertyAccessExpression, SyntaxKind.ArrowFunction, SyntaxKind.MethodDeclaration];

const EDGE_CASES = `
const session = 1;
/** Uses {@link session} and {@link Holder.m}; @param value the value @this {Holder} */
function take(value: number): number { return value + session; }
class Holder {
  field = this;
  m(): this { return this; }
  is(): this is Holder { return true; }
  /** {@link session} */
  n() { const t: typeof this = this; return () => this.m(); }
}
const \\u0061b = 2; const uses = ab + \\u0061b;
`;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.[cm]?tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

function expectSameAsTsMorph(file: SourceFile): void {
  const index = FileIndex.of(file);
  const walked = new Map<SyntaxKind, Node[]>();
  file.forEachDescendant((node) => {
    const list = walked.get(node.getKind()) ?? [];
    walked.set(node.getKind(), [...list, node]);
  });
  for (const kind of KINDS) expect(index.wrapped(kind), `${file.getFilePath()} ${SyntaxKind[kind]}`).toEqual(walked.get(kind) ?? []);

  const containers: Node[] = [file, ...file.getDescendants().filter((n) => Node.isFunctionLikeDeclaration(n) || Node.isBlock(n))];
  for (const container of containers) {
    const identifiers = container.getDescendantsOfKind(SyntaxKind.Identifier);
    for (const text of new Set(identifiers.map((id) => id.compilerNode.text))) {
      expect(index.identifiers(text, container), `${file.getFilePath()} identifiers ${text}`).toEqual(identifiers.filter((id) => id.compilerNode.text === text));
    }
    expect(index.thisKeywords(container), `${file.getFilePath()} this`).toEqual(container.getDescendantsOfKind(SyntaxKind.ThisKeyword));
    for (const kind of KINDS) {
      expect(
        index.wrapped(kind, () => true, container),
        `${file.getFilePath()} ${SyntaxKind[kind]} within`,
      ).toEqual(container.getDescendantsOfKind(kind));
    }
  }
}

describe("FileIndex", () => {
  it("lists what ts-morph's walks list, in the same order, on JSDoc links, `this` types and escaped names", () => {
    const file = new Project({ useInMemoryFileSystem: true }).createSourceFile("/edge.ts", EDGE_CASES);
    expectSameAsTsMorph(file);
    const index = FileIndex.of(file);
    expect(index.identifiers("session").map((id) => id.getParent()?.getKindName())).toEqual(["VariableDeclaration", "JSDocLink", "BinaryExpression", "JSDocLink"]);
    expect(index.identifiers("ab")).toHaveLength(3);
  });

  it("lists what ts-morph's walks list on every source file of the runtime and the examples", { timeout: 300_000 }, () => {
    const project = new Project({ useInMemoryFileSystem: true });
    const paths = [...sourceFiles(join(REPO_ROOT, "runtime/src")), ...sourceFiles(join(REPO_ROOT, "examples"))];
    expect(paths.length).toBeGreaterThan(100);
    for (const path of paths) expectSameAsTsMorph(project.createSourceFile(path, readFileSync(path, "utf8")));
  });

  it("is built once per parsed version: an edit gives a new index, an unchanged tree the same one", () => {
    const project = new Project({ useInMemoryFileSystem: true });
    const first = project.createSourceFile("/a.ts", "f(1);");
    const index = FileIndex.of(first);
    expect(FileIndex.of(first)).toBe(index);
    const edited = project.createSourceFile("/a.ts", "f(1); g(2);", { overwrite: true });
    expect(FileIndex.of(edited)).not.toBe(index);
    expect(FileIndex.of(edited).raw(SyntaxKind.CallExpression)).toHaveLength(2);
  });
});
