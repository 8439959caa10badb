export { InMemorySignalStore, getDefaultSignalStore, setDefaultSignalStore } from "./signalStore.js";
export type { SessionSignalRecord, SignalStore } from "./signalStore.js";
export { SqliteSignalStore } from "./sqliteSignalStore.js";
export type { RecordedSession, SqliteSignalStoreOptions } from "./sqliteSignalStore.js";
export {
  DEFAULT_SIGNAL_DB,
  SIGNAL_DB_ENV,
  closeEmbeddedSignalStores,
  defaultSignalDbPath,
  embeddedDefaultSignalStore,
} from "./embeddedDefaultStore.js";
export {
  NewerSchemaError,
  NotASignalDatabaseError,
  SignalStoreClosedError,
  SignalStoreError,
  SignalStoreLockedError,
  SignalStoreMissingError,
  SignalStoreUnwritableError,
} from "./sqliteErrors.js";
export { SIGNAL_DB_SCHEMA_VERSION } from "./sqliteSchema.js";
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
