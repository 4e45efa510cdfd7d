// Device side of the soak bench (bench/soak.ts), run as its own process (forked, with an IPC
// channel) so that publishing does not share an event loop with the browsers' sockets and the
// API users: every device connects to the MQTT broker, then the reports go out at a fixed rate
// (open loop, round-robin) at QoS 1 until the end the bench names. Each report's device time is
// its publish time (ms, strictly increasing per device), so the bench's sockets can time it; the
// acknowledgement is timed here. Only what falls after the warm-up is measured.
// Protocol: -> {type:'ready'} once connected; <- {type:'go', start, warmupUntil, end};
// -> {type:'done', ...SoakPublishResult} after the last acknowledgements (or 10 s), then exits.
import { readFileSync } from 'node:fs';
import { createHistogram } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import mqtt from 'mqtt';

/** What the publisher answers at the end. */
export interface SoakPublishResult {
  sent: number;
  acked: number;
  failed: number;
  /** Never acknowledged, 10 s after the last publish. */
  unacked: number;
  /** Acknowledgements that arrived between the warm-up's end and the load's end. */
  ackedInWindow: number;
  /** Reports published after the warm-up, per organisation (index), for the sockets' delivery ratio. */
  publishedInWindowByOrg: number[];
  /** Publish to acknowledgement of the reports published after the warm-up, ms. */
  ack: { p50: number; p99: number; max: number; count: number };
  /** p99 of the first and of the second half of the measured window: a queue that builds up shows here. */
  ackHalves: [number, number];
  /** Clients that lost their connection during the run. */
  disconnects: number;
}

const { values: o } = parseArgs({
  options: {
    mqtt: { type: 'string' },
    devices: { type: 'string' },
    rate: { type: 'string', default: '5000' },
    /** Every Nth device alternates a warm report (+5.0 C) with its usual one (-18.5 C); 0: none. */
    'alert-every': { type: 'string', default: '0' },
  },
});
const devices = JSON.parse(readFileSync(o.devices!, 'utf8')) as { deviceId: string; secret: string; org: number }[];
const rate = Number(o.rate);
const alertEvery = Number(o['alert-every']);
const orgCount = Math.max(...devices.map((d) => d.org)) + 1;
const send = (msg: unknown) => new Promise<void>((r) => process.send!(msg, () => r()));

// Extra data of a reefer tracker (as bench/intake-load.ts): battery, -18.5 C, humidity, door closed; or +5.0 C.
const EXTRA = '{"1":{"batval":856},"3":{"temp":32953,"humidity":652},"16":{"gac":0}}';
const EXTRA_WARM = '{"1":{"batval":856},"3":{"temp":50,"humidity":652},"16":{"gac":0}}';
const lastTime = new Array<number>(devices.length).fill(0);
const reportsOf = new Array<number>(devices.length).fill(0);

let disconnects = 0;
const clients: mqtt.MqttClient[] = [];
for (let i = 0; i < devices.length; i += 100) {
  const batch = devices.slice(i, i + 100).map((d) =>
    mqtt.connectAsync(o.mqtt!, { username: d.deviceId, password: d.secret, reconnectPeriod: 0, clean: true, keepalive: 60 }),
  );
  clients.push(...(await Promise.all(batch)));
}
let stopping = false;
for (const c of clients) c.on('close', () => void (stopping || disconnects++));
await send({ type: 'ready' });
const go = await new Promise<{ start: number; warmupUntil: number; end: number }>((resolve) => process.once('message', (m) => resolve(m as never)));

let sent = 0;
let acked = 0;
let failed = 0;
let ackedInWindow = 0;
const publishedInWindowByOrg = new Array<number>(orgCount).fill(0);
// Microseconds (the histogram takes integers >= 1).
const ackHist = createHistogram({ lowest: 1, highest: 3_600_000_000, figures: 3 });
const ackHalves = [createHistogram({ lowest: 1, highest: 3_600_000_000, figures: 3 }), createHistogram({ lowest: 1, highest: 3_600_000_000, figures: 3 })];

function publish(i: number) {
  const now = Date.now();
  const t = Math.max(now, lastTime[i]! + 1);
  lastTime[i] = t;
  const d = devices[i]!;
  const warm = alertEvery > 0 && i % alertEvery === 0 && reportsOf[i]!++ % 2 === 0;
  const measured = t >= go.warmupUntil && t < go.end;
  if (measured) publishedInWindowByOrg[d.org]!++;
  const body = JSON.stringify({ deviceId: d.deviceId, time: new Date(t).toISOString(), lat: 31.2 + i / 1e4, lon: 121.4 + i / 1e4, speed: 60, course: 90, acc: true, extraData: warm ? EXTRA_WARM : EXTRA });
  sent++;
  clients[i]!.publish(`devices/${d.deviceId}/report`, body, { qos: 1 }, (err) => {
    const at = Date.now();
    if (err) failed++;
    else {
      acked++;
      if (at >= go.warmupUntil && at <= go.end) ackedInWindow++;
      if (measured) {
        const us = Math.max(1, (at - t) * 1000);
        ackHist.record(us);
        ackHalves[t < (go.warmupUntil + go.end) / 2 ? 0 : 1]!.record(us);
      }
    }
  });
}

// Open loop: every 5 ms, the publishes due by now, round-robin over the devices.
await new Promise((r) => setTimeout(r, Math.max(0, go.start - Date.now())));
let next = 0;
await new Promise<void>((resolve) => {
  const timer = setInterval(() => {
    const now = Date.now();
    const due = Math.floor(((Math.min(now, go.end) - go.start) / 1000) * rate);
    while (sent < due) {
      publish(next);
      next = (next + 1) % devices.length;
    }
    if (now >= go.end) {
      clearInterval(timer);
      resolve();
    }
  }, 5);
});
// Let the last acknowledgements arrive.
const settle = Date.now() + 10_000;
while (acked + failed < sent && Date.now() < settle) await new Promise((r) => setTimeout(r, 20));
stopping = true;
await Promise.all(clients.map((c) => c.endAsync(true)));
const ms = (v: number) => v / 1000;
const result: SoakPublishResult = {
  sent,
  acked,
  failed,
  unacked: sent - acked - failed,
  ackedInWindow,
  publishedInWindowByOrg,
  ack: { p50: ms(ackHist.percentile(50)), p99: ms(ackHist.percentile(99)), max: ms(ackHist.max), count: ackHist.count },
  ackHalves: [ms(ackHalves[0]!.percentile(99)), ms(ackHalves[1]!.percentile(99))],
  disconnects,
};
await send({ type: 'done', ...result });
process.exit(0);
