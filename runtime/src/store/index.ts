export { InMemorySignalStore, getDefaultSignalStore, setDefaultSignalStore } from "./signalStore.js";
export type { SessionSignalRecord, SignalStore } from "./signalStore.js";
export {
  InMemorySessionStateStore,
  StatusReasonCode,
  TERMINAL_SESSION_STATUSES,
  getSessionStateStore,
  setSessionStateStore,
} from "./sessionStateStore.js";
export type {
  BranchRecord,
  BranchUpdate,
  MessageRecord,
  SessionRecord,
  SessionStateStore,
  SessionUpdate,
  SessionUsage,
} from "./sessionStateStore.js";
