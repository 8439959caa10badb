import { requireFunction, requireInstance, requireMethod } from "../shared/arguments.js";
import { persistMessage } from "./builtins.js";
import { Branch, PERSIST_VIA_BUS } from "./branch.js";
import type { HookHandler } from "./hookBus.js";
import { HookPoint } from "./hookPoint.js";
import type { Message } from "./message.js";
import type { HookPayloadMap } from "./payloads.js";
import type { Session } from "./session.js";
import { wiringOf } from "./wiring.js";

/** The MESSAGE_ADD handler {@link routeMessagePersistence} installs and returns. */
export type MessageRouteHandler = HookHandler<Partial<HookPayloadMap["message.add"]>>;

/**
 * Routes a branch's messages to `onMessage` through the Session bus, replacing the default
 * persistence: it creates (or reads) `session.hooks`, removes `persistMessage` from that shared
 * bus, attaches the bus to `branch`, installs `branch.persistViaBus` once on its message
 * callbacks, and registers a MESSAGE_ADD handler that calls `onMessage` only for this branch's
 * id (or an emission without one). Returns that handler for {@link unrouteMessagePersistence}.
 *
 * The callback is async, so after routing the branch's sync `addMessage` refuses to run; use
 * `addMessageAsync`.
 */
export function routeMessagePersistence(
  session: Session,
  branch: Branch,
  onMessage: (message: Message) => unknown,
): MessageRouteHandler {
  const where = "routeMessagePersistence(session, branch, onMessage)";
  requireMethod(session, where, "session (a Session)", "newBranch");
  requireInstance(branch, Branch, "a Branch", where, "branch");
  requireFunction(onMessage, where, "onMessage");
  const bus = session.hooks;
  bus.off(HookPoint.MESSAGE_ADD, persistMessage as unknown as HookHandler);
  wiringOf(branch).hooks = bus;
  if (!branch.onMessageAdded.includes(branch.persistViaBus)) branch.onMessageAdded.push(branch.persistViaBus);
  const handler: MessageRouteHandler = async ({ message, branchId }) => {
    if (branchId === undefined || branchId === null || branchId === branch.id) await onMessage(message as Message);
  };
  bus.on(HookPoint.MESSAGE_ADD, handler as HookHandler<HookPayloadMap["message.add"]>);
  return handler;
}

/**
 * Undoes {@link routeMessagePersistence} for `holder`: removes `handler` from its bus (if it has
 * one) and every `persistViaBus` callback (any branch's) from its message callbacks, in place.
 * The default `persistMessage` is not put back on the shared bus.
 */
export function unrouteMessagePersistence(holder: Branch, handler: MessageRouteHandler): void {
  requireInstance(holder, Branch, "a Branch", "unrouteMessagePersistence(holder, handler)", "holder");
  requireFunction(handler, "unrouteMessagePersistence(holder, handler)", "handler");
  const bus = holder.hooks;
  if (bus) bus.off(HookPoint.MESSAGE_ADD, handler as HookHandler<HookPayloadMap["message.add"]>);
  const callbacks = holder.onMessageAdded;
  for (let i = callbacks.length - 1; i >= 0; i--) {
    if ((callbacks[i] as Partial<Record<typeof PERSIST_VIA_BUS, true>>)[PERSIST_VIA_BUS]) callbacks.splice(i, 1);
  }
}
