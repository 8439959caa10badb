/**
 * `node --import @hooklens/runtime/ai-sdk/register app.js`: records every AI SDK 7 call of the
 * program (see {@link observeAiSdk}) to the editor when `HOOKLENS_LIVE` is set and to
 * OpenTelemetry when `HOOKLENS_OTEL` is, with no change to the program. Otherwise it does nothing.
 */
import { observeAiSdk } from "./tracingChannel.js";

observeAiSdk();
