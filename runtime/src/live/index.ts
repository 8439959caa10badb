export {
  LIVE_ENV,
  LIVE_PROTOCOL_VERSION,
  MAX_FRAME_BYTES,
  byeFrameSchema,
  droppedFrameSchema,
  formatLiveEnv,
  helloFrameSchema,
  liveFrameSchema,
  parseLiveEnv,
  signalFrameSchema,
} from "./frames.js";
export type { ByeFrame, DroppedFrame, HelloFrame, LiveEndpoint, LiveFrame, SignalFrame } from "./frames.js";
export { LiveConnection } from "./connection.js";
export { LiveSink } from "./liveSink.js";
export { flushLive, liveSink } from "./publisher.js";
export { recordedSignalFrame } from "./recorded.js";
