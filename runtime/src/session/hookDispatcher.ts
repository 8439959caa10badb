import { isThenable } from "../shared/async.js";
import type { HookHandler } from "./hookBus.js";
import { continueChain, handlerThrew, runHandlers, type ChainRecording } from "./hookChain.js";
import type { HookPoint } from "./hookPoint.js";
import type { HookPayload } from "./payloads.js";

/**
 * Runs one handler list. Returns undefined when every handler finished synchronously (the caller
 * records), or the promise of the rest of the chain once a handler returned a thenable. A
 * blocking failure is thrown; the caller turns it into a rejection.
 */
export type Dispatcher = (
  args: HookPayload,
  point: HookPoint,
  blocking: boolean,
  recordInto: ChainRecording | null,
) => Promise<void> | undefined;

/** What the generated code calls; passed in, so the generated text contains no names from outside. */
interface DispatchRuntime {
  isThenable: typeof isThenable;
  handlerThrew: typeof handlerThrew;
  continueChain: typeof continueChain;
}

type DispatcherFactory = (handlers: readonly HookHandler[], runtime: DispatchRuntime) => Dispatcher;

const RUNTIME: DispatchRuntime = { isThenable, handlerThrew, continueChain };
/** Longer lists run through the loop: the unrolled body grows with every handler. */
const MAX_UNROLLED = 32;
/** One factory per list length, generated once per process; `null` where code generation is disallowed. */
const factories = new Map<number, DispatcherFactory | null>();

/**
 * Builds the dispatcher for a handler list (the list must never change afterwards; the bus
 * replaces lists instead). Up to {@link MAX_UNROLLED} handlers it is unrolled: one direct call
 * per handler, so each call site sees one handler and the engine can inline it, and the loop's
 * bookkeeping disappears. The code comes from a fixed template that interpolates only indices.
 */
export function compileDispatcher(handlers: readonly HookHandler[]): Dispatcher {
  const factory = handlers.length <= MAX_UNROLLED ? unrolledFactory(handlers.length) : null;
  return factory === null ? loopDispatcher(handlers) : factory(handlers, RUNTIME);
}

function unrolledFactory(size: number): DispatcherFactory | null {
  let factory = factories.get(size);
  if (factory === undefined) {
    try {
      factory = new Function("hs", "rt", unrolledSource(size)) as DispatcherFactory;
    } catch {
      // e.g. node --disallow-code-generation-from-strings: the loop does the same work.
      factory = null;
    }
    factories.set(size, factory);
  }
  return factory;
}

function unrolledSource(size: number): string {
  const lines = [
    `"use strict";`,
    `const isThenable = rt.isThenable, threw = rt.handlerThrew, continueChain = rt.continueChain;`,
  ];
  for (let i = 0; i < size; i++) lines.push(`const h${i} = hs[${i}];`);
  lines.push(`return function dispatch(args, point, blocking, recordInto) {`, `let r, t;`);
  for (let i = 0; i < size; i++) {
    lines.push(
      `try { r = h${i}(args); t = r !== undefined && isThenable(r); } catch (e) { if (threw(e, point, blocking, h${i})) return undefined; t = false; }`,
      `if (t) return continueChain(hs, ${i}, r, args, point, blocking, recordInto);`,
    );
  }
  lines.push(`return undefined;`, `};`);
  return lines.join("\n");
}

/** The same contract as the unrolled code, for long lists and for engines without code generation. */
function loopDispatcher(handlers: readonly HookHandler[]): Dispatcher {
  return (args, point, blocking, recordInto) => runHandlers(handlers, 0, args, point, blocking, recordInto, null);
}
