import { Node, Project, SyntaxKind, type Type } from "ts-morph";
import { describe, expect, it } from "vitest";
import { isErrorType } from "../../server/src/analyzer/engine/returns.js";
import { valueKinds } from "../../server/src/analyzer/engine/valueKinds.js";
import { createFixture } from "../helpers/fixtureProject.js";

/** Returned expressions: forms syntax reads, and forms it must leave to the checker (undefined). */
const EXPRESSIONS = [
  "0", "-1", "+2", "1n", '"x"', "`t${String(p)}`", "true", "false", "null", "undefined", "void p", "[]", "[1, 2]", "({})", "({ a: 1, b() { return 2; } })",
  "() => 1", "function () { return 1; }", 'new Error("x")', 'new TypeError("x")', "p === 1", "p != null", "!p", "typeof p", '"k" in Object(p)',
  "p instanceof Error", "p ? 0 : null", 'p ? "a" : true', "p ? undefined : [1]", "p ? new Error() : null", "(p ? 1 : 2)",
  // Left to the checker:
  "p ? [] : {}", "p ? () => 1 : {}", "({ then: 1 })", "({ ...Object(p) })", '({ ["a"]: 1 })', "p", "String(p)", "p || 0", "p ? 0 : String(p)", "-p",
  "new Local()", "new Shadowed()", "new AggregateError([])", "await Promise.resolve(1)",
];
const LEFT = EXPRESSIONS.slice(EXPRESSIONS.indexOf("p ? [] : {}"));

/** The kinds of a type as the rules judge them, from the checker. */
function checkerKinds(type: Type): Set<string> {
  return new Set(
    (type.isUnion() ? type.getUnionTypes() : [type]).map((part) => {
      if (part.isBoolean() || part.isBooleanLiteral()) return "boolean";
      if (part.isString() || part.isStringLiteral() || part.isTemplateLiteral()) return "string";
      if (part.isNumber() || part.isNumberLiteral()) return "number";
      if (part.isBigInt() || part.isBigIntLiteral()) return "bigint";
      if (part.isNull()) return "null";
      if (part.isUndefined() || part.isVoid()) return "undefined";
      if (part.isArray() || part.isTuple()) return "array";
      if (part.getCallSignatures().length > 0) return "function";
      if (isErrorType(part)) return "error";
      return part.isObject() ? "object" : `other: ${part.getText()}`;
    }),
  );
}

describe("valueKinds: what syntax reads of a value is what the checker's type says", () => {
  it.each([true, false])("strict %s", (strict) => {
    const fixture = createFixture();
    try {
      fixture.write("tsconfig.json", JSON.stringify({ compilerOptions: { strict, target: "ES2022", module: "ESNext", moduleResolution: "Bundler", skipLibCheck: true, lib: ["ES2022"] } }));
      const bodies = EXPRESSIONS.map((expression, i) => `export async function f${i}(p: unknown) {\n  return ${expression};\n}`);
      const source = `class Local {}\nclass Shadowed extends Error {}\nconst Error2 = Error;\nvoid Error2;\n${bodies.join("\n")}\n`;
      const path = fixture.write("values.ts", source);
      const project = new Project({ tsConfigFilePath: fixture.path("tsconfig.json"), skipAddingFilesFromTsConfig: true });
      const file = project.addSourceFileAtPath(path);
      const returned = file.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => Node.isFunctionDeclaration(r.getParent()?.getParent())).map((r) => r.getExpressionOrThrow());
      expect(returned.length).toBe(EXPRESSIONS.length);
      const rows = returned.map((expression, i) => {
        const syntax = valueKinds(expression.compilerNode, file);
        const checker = checkerKinds(expression.getType());
        // Without strictNullChecks a union drops null and undefined (they belong to every type): compare the rest.
        const comparable = (kinds: ReadonlySet<string>) => [...kinds].filter((k) => strict || kinds.size === 1 || (k !== "null" && k !== "undefined")).sort();
        return { expression: EXPRESSIONS[i], syntax: syntax && comparable(syntax), checker: comparable(checker) };
      });
      expect(rows.filter((row) => row.syntax !== undefined && JSON.stringify(row.syntax) !== JSON.stringify(row.checker))).toEqual([]);
      expect(rows.filter((row) => row.syntax === undefined).map((row) => row.expression)).toEqual(LEFT);
    } finally {
      fixture.dispose();
    }
  });

  it("reads nothing of a name the file declares itself", () => {
    const fixture = createFixture();
    try {
      const path = fixture.write("shadow.ts", "const undefined = 1;\nclass Error {}\nexport const a = undefined;\nexport const b = new Error();\n");
      const project = new Project({ tsConfigFilePath: fixture.path("tsconfig.json"), skipAddingFilesFromTsConfig: true });
      const file = project.addSourceFileAtPath(path);
      const values = file.getVariableDeclarations().slice(1).map((d) => d.getInitializerOrThrow());
      expect(values.map((value) => valueKinds(value.compilerNode, file))).toEqual([undefined, undefined]);
    } finally {
      fixture.dispose();
    }
  });
});
