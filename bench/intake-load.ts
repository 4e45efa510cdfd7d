// Load generator of the intake bench, run as its own process so that publishing and receiving
// do not run on the server's event loop: many devices connected to the MQTT broker publish
// reports at QoS 1, either at a fixed rate (open loop) or as fast as acknowledgements come back
// (closed loop, `--rate 0`). Each report's device time is its publish time (ms, strictly
// increasing per device); with `--ws` this process also holds a browser's live WebSocket and
// times each report from its publish to the first pushed state (or, `--watch alarms`, alarm) at
// least as new, on one clock.
// Prints one JSON line at the end.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import mqtt from 'mqtt';
import WebSocket from 'ws';

const { values: o } = parseArgs({
  options: {
    mqtt: { type: 'string' },
    devices: { type: 'string' },
    rate: { type: 'string', default: '0' },
    duration: { type: 'string', default: '10' },
    inflight: { type: 'string', default: '8' },
    ws: { type: 'string' },
    /** What the WebSocket times: pushed device states, or pushed alarms (an alarm's last time is its report's). */
    watch: { type: 'string', default: 'states' },
    /** Every Nth device alternates a warm report (+5.0 C) with its usual one (-18.5 C); 0: none. */
    'alert-every': { type: 'string', default: '0' },
  },
});
const devices = JSON.parse(readFileSync(o.devices!, 'utf8')) as { deviceId: string; secret: string }[];
const rate = Number(o.rate);
const durationMs = Number(o.duration) * 1000;
const inflight = Number(o.inflight);

// Extra data of a reefer tracker: battery, temperature (-18.5 C) and humidity, door closed.
const EXTRA = '{"1":{"batval":856},"3":{"temp":32953,"humidity":652},"16":{"gac":0}}';
// The same tracker reporting +5.0 C (a reefer whose unit failed).
const EXTRA_WARM = '{"1":{"batval":856},"3":{"temp":50,"humidity":652},"16":{"gac":0}}';
const alertEvery = Number(o['alert-every']);
const alerting = (i: number) => alertEvery > 0 && i % alertEvery === 0;
const reportsOf = new Array<number>(devices.length).fill(0);
const lastTime = new Array<number>(devices.length).fill(0);
const published: [number, number][] = [];
let sent = 0;
let acked = 0;
let failed = 0;
let lastAckAt = 0;

// The browser's side: each device's pushed states as (arrival, device time of the state).
const arrivals = new Map<string, [number, number][]>();
let socket: WebSocket | undefined;
if (o.ws) {
  socket = new WebSocket(o.ws);
  socket.on('message', (data) => {
    const at = Date.now();
    const msg = JSON.parse(String(data)) as
      | { type: 'device-states'; data: { deviceId: string; time: string }[] }
      | { type: 'alarms'; data: { device: { deviceId: string }; lastAt: string }[] }
      | { type: 'hello' };
    const seenAt = (deviceId: string, time: string) => {
      const seen = arrivals.get(deviceId) ?? [];
      seen.push([at, Date.parse(time)]);
      arrivals.set(deviceId, seen);
    };
    if (o.watch === 'alarms' && msg.type === 'alarms') for (const a of msg.data) seenAt(a.device.deviceId, a.lastAt);
    else if (o.watch === 'states' && msg.type === 'device-states') for (const st of msg.data) seenAt(st.deviceId, st.time);
  });
  await new Promise<void>((resolve, reject) => {
    socket!.once('open', () => resolve());
    socket!.once('error', reject);
  });
}

function payload(i: number): string {
  const t = Math.max(Date.now(), lastTime[i]! + 1);
  lastTime[i] = t;
  published.push([i, t]);
  const d = devices[i]!;
  const warm = alerting(i) && reportsOf[i]!++ % 2 === 0;
  return JSON.stringify({ deviceId: d.deviceId, time: new Date(t).toISOString(), lat: 31.2 + i / 1e4, lon: 121.4 + i / 1e4, speed: 60, course: 90, acc: true, extraData: warm ? EXTRA_WARM : EXTRA });
}

const clients: mqtt.MqttClient[] = [];
for (let i = 0; i < devices.length; i += 100) {
  const batch = devices.slice(i, i + 100).map((d) =>
    mqtt.connectAsync(o.mqtt!, { username: d.deviceId, password: d.secret, reconnectPeriod: 0, clean: true, keepalive: 60 }),
  );
  clients.push(...(await Promise.all(batch)));
}

function publish(i: number, then?: () => void) {
  sent++;
  clients[i]!.publish(`devices/${devices[i]!.deviceId}/report`, payload(i), { qos: 1 }, (err) => {
    if (err) failed++;
    else acked++;
    lastAckAt = Date.now();
    then?.();
  });
}

const start = Date.now();
const end = start + durationMs;
if (rate > 0) {
  // Open loop: every 5 ms, the publishes due by now, round-robin over the devices.
  let next = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = Date.now();
      const due = Math.floor(((Math.min(now, end) - start) / 1000) * rate);
      while (sent < due) {
        publish(next);
        next = (next + 1) % devices.length;
      }
      if (now >= end) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
  });
} else {
  // Closed loop: each device keeps `inflight` reports unacknowledged until the time is up.
  await new Promise<void>((resolve) => {
    let running = devices.length * inflight;
    const loop = (i: number) => {
      if (Date.now() >= end) {
        if (--running === 0) resolve();
        return;
      }
      publish(i, () => loop(i));
    };
    for (let i = 0; i < devices.length; i++) for (let k = 0; k < inflight; k++) loop(i);
  });
}
const elapsedMs = Date.now() - start;
// Let the last acknowledgements arrive.
const settle = Date.now() + 5000;
while (acked + failed < sent && Date.now() < settle) await new Promise((r) => setTimeout(r, 20));
await Promise.all(clients.map((c) => c.endAsync()));

// Each report's latency: the first pushed state of its device at least as new as it.
let latency: { p50: number; p99: number; missing: number } | undefined;
if (socket) {
  await new Promise((r) => setTimeout(r, 1000));
  socket.close();
  const latencies: number[] = [];
  let missing = 0;
  for (const [i, t] of published) {
    // Alarms are timed on the alerting devices only: the others' reports raise none.
    if (o.watch === 'alarms' && alertEvery > 0 && !alerting(i)) continue;
    const hit = arrivals.get(devices[i]!.deviceId)?.find(([, stateTime]) => stateTime >= t);
    if (hit) latencies.push(hit[0] - t);
    else missing++;
  }
  latencies.sort((a, b) => a - b);
  latency = { p50: latencies[Math.floor(latencies.length * 0.5)] ?? NaN, p99: latencies[Math.floor(latencies.length * 0.99)] ?? NaN, missing };
}
console.log(JSON.stringify({ sent, acked, failed, elapsedMs, ackedMs: lastAckAt - start, latency }));
process.exit(0);
