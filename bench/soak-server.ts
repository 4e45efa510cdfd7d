// The soak bench's server process: the real entry point (apps/server/src/main.ts, unchanged) in a
// process of its own, so that the memory the bench samples is the server's alone and not its
// load generators'. The one addition: it answers `memory` over the IPC channel to the bench with
// process.memoryUsage() (RSS, and the V8 heap the RSS alone cannot show), the heap in use right
// after the last full garbage collection (heap used at a random moment includes garbage not yet
// collected; after a full collection it is what the process really keeps), and the time spent
// collecting since the last answer. V8's own GC profiler gives the figures of each collection.
import { GCProfiler } from 'node:v8';

let profiler = new GCProfiler();
profiler.start();
let heapAfterGc = 0;
let fullGcs = 0;

process.on('message', (m) => {
  if (m !== 'memory') return;
  const { statistics } = profiler.stop();
  profiler = new GCProfiler();
  profiler.start();
  let gcMicros = 0;
  for (const s of statistics) {
    gcMicros += s.cost;
    if (s.gcType === 'MarkSweepCompact') {
      heapAfterGc = s.afterGC.heapStatistics.usedHeapSize;
      fullGcs++;
    }
  }
  process.send?.({ type: 'memory', memory: process.memoryUsage(), heapAfterGc, fullGcs, gcMs: gcMicros / 1000 });
});
await import('../apps/server/src/main.ts');
