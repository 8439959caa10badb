// Silencing findings in the code: each comment names the codes it silences and, after " -- ", why.
import assert from "node:assert/strict";
import { HookBus, HookPoint } from "@hooklens/runtime";

const bus = new HookBus();
const audit = (payload: object): void => console.log("audit", payload);

// hooklens-disable-next-line HL001 -- the model's service hooks cover this point
bus.on(HookPoint.API_PRE_CALL, audit);

bus.on(HookPoint.API_POST_CALL, audit); // hooklens-disable-line HL001

/* hooklens-disable HL004 */
// … HL004 is silent from here on …
/* hooklens-enable HL004 */

// Silencing changes what `hooklens check` reports, never what runs: both handlers are registered.
assert.equal(bus.handlersFor(HookPoint.API_PRE_CALL).length + bus.handlersFor(HookPoint.API_POST_CALL).length, 2);
console.log("two handlers registered on dormant points, their findings silenced");
