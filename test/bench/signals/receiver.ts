// The editor's end of the live stream, for the signals bench: the extension's own LiveServer
// (token check, line limits, every frame checked with the zod schemas), run as its own process.
// It sends the parent `{ endpoint }`, then one report per connection when that connection ends.
import { performance } from "node:perf_hooks";
import { LiveServer, type LivePeer } from "../../../client/src/signals/liveServer.js";

interface Tally {
  signals: number;
  dropped: number;
  helloAt: number;
  lastAt: number;
  bye: boolean;
}

const tallies = new Map<number, Tally>();
const tallyOf = (peer: LivePeer): Tally => {
  let tally = tallies.get(peer.connectionId);
  if (!tally) tallies.set(peer.connectionId, (tally = { signals: 0, dropped: 0, helloAt: performance.now(), lastAt: 0, bye: false }));
  return tally;
};

const server = await LiveServer.start({
  onFrame(peer, frame) {
    const tally = tallyOf(peer);
    if (frame.type === "signal") {
      tally.signals++;
      tally.lastAt = performance.now();
    } else if (frame.type === "dropped") tally.dropped += frame.count;
    else if (frame.type === "bye") tally.bye = true;
  },
  onDisconnect(peer) {
    const tally = tallyOf(peer);
    tallies.delete(peer.connectionId);
    const cpu = process.cpuUsage();
    process.send?.({
      signals: tally.signals,
      dropped: tally.dropped,
      bye: tally.bye,
      ms: tally.lastAt > 0 ? tally.lastAt - tally.helloAt : 0,
      malformed: server.stats.malformedLines,
      receiverCpuMs: (cpu.user + cpu.system) / 1000,
    });
  },
});
process.send?.({ endpoint: server.environmentValue });
process.on("message", (message) => {
  if (message === "stop") void server.close().then(() => process.exit(0));
});
