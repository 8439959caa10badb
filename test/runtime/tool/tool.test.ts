import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidValueError, NotSupportedError, Tool } from "@hooklens/runtime";

const ReadRequest = z.object({
  path: z.string().describe("file to read"),
  limit: z.number().int().default(100),
  encoding: z.string().optional(),
});

function readFile(args: { path: string }) {
  return { path: args.path };
}

describe("Tool", () => {
  it("takes its name from the callable and exposes it as `function`", () => {
    expect(new Tool({ funcCallable: readFile }).function).toBe("readFile");
    expect(new Tool({ funcCallable: readFile, name: "read" }).function).toBe("read");
  });

  it("rejects an anonymous callable without a name", () => {
    expect(() => new Tool({ funcCallable: Object.defineProperty(() => 1, "name", { value: "" }) })).toThrow(InvalidValueError);
  });

  it("exports the request model's JSON schema for the model in OpenAI function form", () => {
    const tool = new Tool({ funcCallable: readFile, description: "Read a file", requestOptions: ReadRequest });
    expect(tool.toolSchema).toEqual({
      type: "function",
      function: {
        name: "readFile",
        description: "Read a file",
        parameters: {
          type: "object",
          properties: {
            path: { type: "string", description: "file to read" },
            limit: { type: "integer", default: 100, minimum: expect.any(Number), maximum: expect.any(Number) },
            encoding: { type: "string" },
          },
          required: ["path"],
        },
      },
    });
    expect(tool.toolSchema.function.parameters).not.toHaveProperty("$schema");
  });

  it("lists required fields from the schema and uses them as the minimum for a request model", () => {
    const tool = new Tool({ funcCallable: readFile, requestOptions: ReadRequest });
    expect([...tool.requiredFields]).toEqual(["path"]);
    expect([...tool.minimumAcceptableFields]).toEqual(["path"]);
  });

  it("requires no fields and describes empty parameters when there is no request model", () => {
    const tool = new Tool({ funcCallable: readFile });
    expect(tool.toolSchema.function.parameters).toEqual({ type: "object", properties: {}, required: [] });
    expect(tool.minimumAcceptableFields.size).toBe(0);
  });

  it("keeps preprocessor, postprocessor, their kwargs and strictFuncCall", () => {
    const pre = (args: Record<string, unknown>) => args;
    const post = (result: unknown) => result;
    const tool = new Tool({
      funcCallable: readFile,
      preprocessor: pre,
      preprocessorKwargs: { a: 1 },
      postprocessor: post,
      postprocessorKwargs: { b: 2 },
      strictFuncCall: true,
    });
    expect(tool.preprocessor).toBe(pre);
    expect(tool.postprocessor).toBe(post);
    expect(tool.preprocessorKwargs).toEqual({ a: 1 });
    expect(tool.postprocessorKwargs).toEqual({ b: 2 });
    expect(tool.strictFuncCall).toBe(true);
  });

  it("has no error-processor field", () => {
    const tool = new Tool({ funcCallable: readFile });
    expect(Object.keys(tool).some((key) => /error/i.test(key))).toBe(false);
  });

  it("describes an MCP tool by config alone: the single key is its name and calls go to the client", async () => {
    const calls: unknown[] = [];
    const client = { callTool: (name: string, args: Record<string, unknown>) => (calls.push([name, args]), { ok: true }) };
    const tool = new Tool({
      mcpConfig: {
        search_docs: {
          client,
          description: "Search docs",
          inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
        },
      },
    });
    expect(tool.function).toBe("search_docs");
    expect(tool.toolSchema.function.description).toBe("Search docs");
    expect([...tool.requiredFields]).toEqual(["q"]);
    expect(tool.minimumAcceptableFields.size).toBe(0);
    expect(await tool.funcCallable({ q: "hooks" })).toEqual({ ok: true });
    expect(calls).toEqual([["search_docs", { q: "hooks" }]]);
  });

  it("refuses an MCP config together with a callable, or with other than one entry", () => {
    const client = { callTool: () => null };
    expect(() => new Tool({ funcCallable: readFile, mcpConfig: { a: { client } } })).toThrow(/both funcCallable and mcpConfig/);
    expect(() => new Tool({ mcpConfig: { a: { client }, b: { client } } })).toThrow(/exactly one entry/);
    expect(() => new Tool({ mcpConfig: {} })).toThrow(/exactly one entry/);
  });

  it("serialises without callables and refuses fromDict", () => {
    const dict = new Tool({ funcCallable: readFile }).toDict();
    expect(dict["function"]).toBe("readFile");
    expect(Object.values(dict).some((value) => typeof value === "function")).toBe(false);
    expect(() => Tool.fromDict(dict)).toThrow(NotSupportedError);
  });
});
