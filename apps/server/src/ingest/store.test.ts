// Folding a batch's readings into one latest state per device: the newest time wins, values
// missing from the newest reading keep earlier ones, whatever order the readings came in.
import { describe, expect, it } from 'vitest';
import { foldStates } from './store.ts';
import type { Reading } from './stored-readings.ts';

const reading = (deviceRef: string, t: number, over: Partial<Reading> = {}): Reading => ({
  orgId: 'org',
  deviceRef,
  time: new Date(t),
  lat: null,
  lon: null,
  positioning: null,
  network: null,
  speed: null,
  course: null,
  acc: null,
  raw: {},
  sensors: {},
  ...over,
});

describe('foldStates', () => {
  it('keeps the newest time and the last known position and sensor values, one row per device', () => {
    const received = new Date(5000);
    const states = foldStates(
      [
        reading('b', 3000, { sensors: { battery: 50 } }),
        reading('a', 2000, { lat: 31, lon: 121, positioning: 'GPS', speed: 40, sensors: { temperature: 4, battery: 90 } }),
        reading('a', 1000, { lat: 30, lon: 120, sensors: { temperature: 9, humidity: 60 } }),
        reading('a', 3000, { speed: 0, acc: false, sensors: { battery: 89 } }),
      ],
      received,
    );
    expect(states.map((s) => s.deviceRef)).toEqual(['a', 'b']);
    expect(states[0]).toMatchObject({
      time: new Date(3000),
      receivedAt: received,
      lat: 31,
      lon: 121,
      positioning: 'GPS',
      speed: 0,
      acc: false,
      sensors: { temperature: 4, humidity: 60, battery: 89 },
    });
    expect(states[1]).toMatchObject({ time: new Date(3000), lat: null, sensors: { battery: 50 } });
  });
});
