// Load generator of the intake bench, run as its own process so that publishing does not take
// the server's CPU: many devices connected to the MQTT broker publish reports at QoS 1, either
// at a fixed rate (open loop) or as fast as acknowledgements come back (closed loop, `--rate 0`).
// Each report's device time is its publish time (ms, strictly increasing per device), so the
// bench can measure publish-to-WebSocket latency per report. Prints one JSON line at the end.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import mqtt from 'mqtt';

const { values: o } = parseArgs({
  options: {
    mqtt: { type: 'string' },
    devices: { type: 'string' },
    rate: { type: 'string', default: '0' },
    duration: { type: 'string', default: '10' },
    inflight: { type: 'string', default: '8' },
    out: { type: 'string' },
  },
});
const devices = JSON.parse(readFileSync(o.devices!, 'utf8')) as { deviceId: string; secret: string }[];
const rate = Number(o.rate);
const durationMs = Number(o.duration) * 1000;
const inflight = Number(o.inflight);

// Extra data of a reefer tracker: battery, temperature (-18.5 C) and humidity, door closed.
const EXTRA = '{"1":{"batval":856},"3":{"temp":32953,"humidity":652},"16":{"gac":0}}';
const lastTime = new Array<number>(devices.length).fill(0);
const published: [number, number][] = [];
let sent = 0;
let acked = 0;
let failed = 0;

function payload(i: number): string {
  const t = Math.max(Date.now(), lastTime[i]! + 1);
  lastTime[i] = t;
  if (rate > 0) published.push([i, t]);
  const d = devices[i]!;
  return JSON.stringify({ deviceId: d.deviceId, time: new Date(t).toISOString(), lat: 31.2 + i / 1e4, lon: 121.4 + i / 1e4, speed: 60, course: 90, acc: true, extraData: EXTRA });
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
if (o.out) writeFileSync(o.out, JSON.stringify(published));
console.log(JSON.stringify({ sent, acked, failed, elapsedMs }));
process.exit(0);
