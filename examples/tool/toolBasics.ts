// A Tool with a zod request model, its JSON schema for the model, and an ActionManager.
import assert from "node:assert/strict";
import { z } from "zod";
import { ActionManager, InvalidValueError, Tool, ToolArgumentsError } from "@hooklens/runtime";

const WeatherRequest = z.object({
  city: z.string().describe("City name"),
  unit: z.enum(["C", "F"]).default("C"),
});

function weather(args: { city: string; unit?: "C" | "F" }) {
  return { city: args.city, unit: args.unit ?? "C", temperature: 21 };
}

const tool = new Tool({ funcCallable: weather, description: "Current weather", requestOptions: WeatherRequest });
console.log(JSON.stringify(tool.toolSchema));
// {"type":"function","function":{"name":"weather","description":"Current weather","parameters":{...,"required":["city"]}}}
assert.deepEqual(tool.toolSchema.function.parameters["required"], ["city"]);

const manager = new ActionManager().register(tool);

// Validation happens when the call is built; schema defaults are not filled in (as built).
const call = manager.match({ function: "weather", arguments: { city: "Oslo" } });
assert.deepEqual(call.arguments, { city: "Oslo" });
await call.invoke();
assert.deepEqual(call.response, { city: "Oslo", unit: "C", temperature: 21 });

// A bad argument is a clear error naming the tool and the field.
assert.throws(() => manager.match({ function: "weather", arguments: { city: 7 } }), ToolArgumentsError);
// A duplicate name is refused unless you ask to update.
assert.throws(() => manager.register(tool), InvalidValueError);
manager.register(tool, { update: true });
console.log("ok");
