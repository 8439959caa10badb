import { Project } from "ts-morph";
import { describe, expect, it } from "vitest";
import { LineTable } from "../../../server/src/cli/check/lineAndColumn.js";

// The CLI's positions must read exactly as ts-morph's (the editor's): a line ends at "\n" only, and a
// column counts afresh after "\n" or "\r"; TypeScript's own table also breaks lines at "\r" and
// U+2028, so it cannot stand in.
describe("LineTable", () => {
  const texts = {
    "LF": "const a = 1;\nconst b = 2;\n\nbus.on(x);\n",
    "CRLF": "const a = 1;\r\nconst b = 2;\r\n\r\nbus.on(x);",
    "lone CR": "a\rb\r\rc\nd",
    "line separator": "a\u2028b\nc\u2029d",
    "no break": "bus.on(HookPoint.TOOL_PRE, f)",
    "empty": "",
  };

  it.each(Object.entries(texts))("gives ts-morph's line and column at every offset (%s)", (_name, text) => {
    const file = new Project({ useInMemoryFileSystem: true }).createSourceFile("/t.ts", text);
    const table = new LineTable(text);
    for (let offset = 0; offset <= text.length; offset++) expect(table.at(offset), `offset ${offset}`).toEqual(file.getLineAndColumnAtPos(offset));
  });

  it("clamps offsets outside the text", () => {
    const table = new LineTable("ab\ncd");
    expect(table.at(-5)).toEqual({ line: 1, column: 1 });
    expect(table.at(99)).toEqual({ line: 2, column: 3 });
  });
});
