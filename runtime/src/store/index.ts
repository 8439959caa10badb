export { InMemorySignalStore, getDefaultSignalStore, setDefaultSignalStore } from "./signalStore.js";
export type { RecordedSession, SessionSignalRecord, SignalStore } from "./signalStore.js";
export { SqliteSignalStore } from "./sqliteSignalStore.js";
export type { SqliteSignalStoreOptions } from "./sqliteSignalStore.js";
export { PostgresSignalStore } from "./postgresSignalStore.js";
export type { PostgresConnectionConfig, PostgresSignalStoreOptions } from "./postgresSignalStore.js";
export { DEFAULT_POSTGRES_TABLE, POSTGRES_SIGNAL_SCHEMA_VERSION } from "./postgresSchema.js";
export { isPostgresUrl } from "./postgresTarget.js";
export { SignalStoreAuthError, SignalStoreDriverMissingError, SignalStoreUnreachableError } from "./postgresErrors.js";
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
