// encodeExtraData is the decoder's inverse: values survive the round trip through the shared
// decodeExtraData at the raw resolution, including the sign-magnitude temperature boundaries.
import { describe, expect, it } from 'vitest';
import { decodeExtraData, decodeTemperature, type SensorValues } from '@iotc/shared/sensors';
import { encodeExtraData, encodeTemperature, vibrationAxes } from './encode.ts';

const roundTrip = (values: SensorValues) => {
  const decoded = decodeExtraData(encodeExtraData(values));
  if (!decoded.ok) throw new Error(decoded.reason);
  return decoded.values;
};

describe('encodeTemperature', () => {
  it('encodes sign-magnitude around 32768 and matches the decoder at the boundaries', () => {
    expect(encodeTemperature(0)).toBe(0);
    expect(encodeTemperature(4.5)).toBe(45);
    expect(encodeTemperature(-18.5)).toBe(32768 + 185);
    expect(encodeTemperature(3276.7)).toBe(32767);
    expect(encodeTemperature(-0.1)).toBe(32769);
    expect(encodeTemperature(-0.04)).toBe(0); // rounds to zero: no negative zero on the wire
    expect(decodeTemperature(32767)).toBe(3276.7);
    expect(decodeTemperature(32768)).toBe(0);
    expect(decodeTemperature(32769)).toBe(-0.1);
  });

  it('sends no reading as the absent value and refuses what the format cannot hold', () => {
    expect(decodeTemperature(encodeTemperature(null))).toBeNull();
    expect(() => encodeTemperature(3276.8)).toThrow(RangeError);
    expect(() => encodeTemperature(-3276.8)).toThrow(RangeError);
  });
});

describe('encodeExtraData', () => {
  it('round-trips temperatures from -29.9 to 3276.7 C; -30 C and below decode as no reading', () => {
    const temps = [-29.9, -18.5, -18, -0.1, 0, 0.1, 2, 7.9, 45, 100.5, 3276.6, 3276.7];
    for (let t = -29.9; t <= 60; t += 0.7) temps.push(Math.round(t * 10) / 10);
    for (const temperature of temps) expect(roundTrip({ temperature }).temperature).toBe(temperature);
    expect(roundTrip({ temperature: -30 }).temperature).toBeNull();
    expect(roundTrip({ temperature: -45.2 }).temperature).toBeNull();
    expect(roundTrip({ temperature: null }).temperature).toBeNull();
  });

  it('round-trips every other value at the raw resolution', () => {
    const values: SensorValues[] = [
      { battery: 85.6, humidity: 65.2, light: 0, pressure: 101, mileage: 12345.6, door: 'closed', batteryTemperature: 25.1 },
      { battery: 0, humidity: 0, light: 1500, pressure: 95, mileage: 0, door: 'open', batteryTemperature: -5.5 },
      { battery: 100, humidity: 100, light: 65000, pressure: 110, mileage: 1_234_567.8, door: 'open', batteryTemperature: 0 },
    ];
    for (const v of values) expect(roundTrip(v)).toEqual(v);
  });

  it('writes only the blocks that carry a value, with the documented field names', () => {
    expect(JSON.parse(encodeExtraData({ battery: 85.6, door: 'open' }))).toEqual({ '1': { batval: 856 }, '16': { gac: 1 } });
    expect(JSON.parse(encodeExtraData({ temperature: 4.5, humidity: 65.2, vibration: 0.98, light: 3, pressure: 101 }))).toEqual({
      '3': { temp: 45, humidity: 652 },
      '4': { light: 3, acc_x: expect.any(Number), acc_y: expect.any(Number), acc_z: expect.any(Number), press: 101 },
    });
    expect(encodeExtraData({})).toBe('{}');
  });

  it('splits vibration into integer axes that decode to the same value from 1 g up, and within 0.05 g below', () => {
    for (let hundredths = 0; hundredths <= 2000; hundredths++) {
      const g = hundredths / 100;
      const axes = vibrationAxes(g);
      expect(Object.values(axes).every(Number.isInteger)).toBe(true);
      const decoded = roundTrip({ vibration: g }).vibration!;
      if (g >= 1) expect(decoded).toBe(g);
      else expect(Math.abs(decoded - g)).toBeLessThanOrEqual(0.05 + 1e-9);
    }
    expect(roundTrip({ vibration: 9.8 }).vibration).toBe(9.8);
  });
});
