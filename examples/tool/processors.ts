// Preprocessor → callable → postprocessor: each return replaces the value; failures are recorded, not thrown.
import assert from "node:assert/strict";
import { z } from "zod";
import { FunctionCalling, Tool } from "@hooklens/runtime";

const order: string[] = [];
const tool = new Tool({
  funcCallable: (args: { path: string }) => (order.push(`callable(${args.path})`), { bytes: args.path.length }),
  name: "stat",
  requestOptions: z.object({ path: z.string() }),
  preprocessor: (args, kwargs) => (order.push("preprocessor"), { path: `${kwargs["root"]}/${String(args["path"])}` }),
  preprocessorKwargs: { root: "/srv" },
  postprocessor: (result) => (order.push("postprocessor"), { ...(result as object), checked: true }),
});

const call = new FunctionCalling(tool, { path: "a.txt" });
await call.invoke();
assert.deepEqual(order, ["preprocessor", "callable(/srv/a.txt)", "postprocessor"]);
assert.deepEqual(call.response, { bytes: 10, checked: true });

// The preprocessor's output is not validated again: a wrong type goes straight to the callable.
const sloppy = new Tool({
  funcCallable: (args) => typeof args["path"],
  name: "kind",
  requestOptions: z.object({ path: z.string() }),
  preprocessor: () => ({ path: 42 }),
});
const unchecked = new FunctionCalling(sloppy, { path: "x" });
await unchecked.invoke();
assert.equal(unchecked.response, "number");

// A throwing callable (or processor) marks the call failed and keeps the error.
const broken = new FunctionCalling(
  new Tool({
    funcCallable: () => {
      throw new Error("disk on fire");
    },
    name: "broken",
  }),
  {},
);
await broken.invoke();
assert.equal(broken.status, "failed");
console.log(broken.status, (broken.error as Error).message); // failed disk on fire
