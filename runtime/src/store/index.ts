export { InMemorySignalStore, getDefaultSignalStore, setDefaultSignalStore } from "./signalStore.js";
export type { RecordedSession, SessionSignalRecord, SignalStore } from "./signalStore.js";
export { SIGNALS_DROPPED_KIND } from "./signalRow.js";
export { StoreSink } from "./storeSink.js";
export { SqliteSignalStore } from "./sqlite/sqliteSignalStore.js";
export type { SqliteSignalStoreOptions } from "./sqlite/sqliteSignalStore.js";
export { PostgresSignalStore } from "./postgres/postgresSignalStore.js";
export type { PostgresConnectionConfig, PostgresSignalStoreOptions } from "./postgres/postgresSignalStore.js";
export { DEFAULT_POSTGRES_TABLE, POSTGRES_SIGNAL_SCHEMA_VERSION } from "./postgres/postgresSchema.js";
export { isPostgresUrl } from "./postgres/postgresTarget.js";
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
  SignalStoreAuthError,
  SignalStoreClosedError,
  SignalStoreDriverMissingError,
  SignalStoreError,
  SignalStoreLockedError,
  SignalStoreMissingError,
  SignalStorePathError,
  SignalStoreUnreachableError,
  SignalStoreUnwritableError,
} from "./errors.js";
export { SIGNAL_DB_SCHEMA_VERSION } from "./sqlite/sqliteSchema.js";
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
