// The device link: the embedded broker listens and refuses devices it does not know; with
// MQTT_URL (CI sets it to the machine's Mosquitto) the server connects to the external broker.
import { describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import pino from 'pino';
import { startMqtt } from './mqtt.ts';

const log = pino({ level: 'silent' });

describe('embedded MQTT broker', () => {
  it('listens on an OS-chosen port and refuses a wrong secret at connect', async () => {
    const link = await startMqtt({ port: 0, host: '127.0.0.1', log, authenticate: async (u, p) => u === 'dev1' && p === 's3cret' });
    try {
      expect(link.mode).toBe('embedded');
      const url = `mqtt://127.0.0.1:${link.port}`;
      const refused = await new Promise<number | undefined>((resolve) => {
        const c = mqtt.connect(url, { username: 'dev1', password: 'wrong', reconnectPeriod: 0 });
        c.on('error', (err) => {
          c.end(true);
          resolve((err as Error & { code?: number }).code);
        });
        c.on('connect', () => {
          c.end(true);
          resolve(0);
        });
      });
      expect(refused).toBe(4); // MQTT 3.1.1: bad user name or password

      const c = await mqtt.connectAsync(url, { username: 'dev1', password: 's3cret', reconnectPeriod: 0 });
      expect(c.connected).toBe(true);
      await c.endAsync();
    } finally {
      await link.close();
    }
  });

  it('refuses everyone when no device is known', async () => {
    const link = await startMqtt({ port: 0, host: '127.0.0.1', log });
    try {
      await expect(
        mqtt.connectAsync(`mqtt://127.0.0.1:${link.port}`, { username: 'x', password: 'y', reconnectPeriod: 0 }),
      ).rejects.toThrow();
    } finally {
      await link.close();
    }
  });
});

describe.runIf(process.env.MQTT_URL)('external MQTT broker (MQTT_URL)', () => {
  it('connects to the broker named by MQTT_URL', async () => {
    const link = await startMqtt({ url: process.env.MQTT_URL, port: 0, host: '127.0.0.1', log });
    try {
      expect(link.mode).toBe('external');
      await link.ready;
    } finally {
      await link.close();
    }
  });
});
