// The spec's section 9 conversions, each boundary included, and the rejection of broken blocks.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeExtraData, decodeTemperature, decodeVibration, isBatteryLow, SENSOR_FIELDS } from './sensors.ts';

const values = (extraData: unknown) => {
  const r = decodeExtraData(extraData);
  if (!r.ok) throw new Error(r.reason);
  return r.values;
};
const reason = (extraData: unknown) => {
  const r = decodeExtraData(extraData);
  if (r.ok) throw new Error('expected a rejection');
  return r.reason;
};

describe('temperature (sign-magnitude around 32768)', () => {
  it.each([
    [0, 0],
    [45, 4.5],
    [250, 25],
    [32767, 3276.7],
    [32768, 0],
    [32769, -0.1],
    [32818, -5],
    [33067, -29.9],
  ])('raw %d is %d C', (raw, celsius) => {
    expect(decodeTemperature(raw)).toBe(celsius);
  });

  it('treats -30 C and below as no reading', () => {
    expect(decodeTemperature(33068)).toBeNull();
    expect(decodeTemperature(33069)).toBeNull();
    expect(decodeTemperature(40000)).toBeNull();
  });

  it('is never -30 or below and mirrors around 32768 above it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 65535 }), (raw) => {
        const t = decodeTemperature(raw);
        if (t !== null) expect(t).toBeGreaterThan(-30);
        if (raw > 32768 && raw - 32768 < 300) expect(t).toBe(-decodeTemperature(raw - 32768)!);
      }),
    );
  });
});

describe('decodeExtraData', () => {
  it('decodes every block of the spec', () => {
    const v = values(
      JSON.stringify({
        1: { batval: 856 },
        3: { temp: 32818, humidity: 652 },
        4: { light: 120, acc_x: 3, acc_y: 4, acc_z: 12, press: 101 },
        14: { mileage: 123456 },
        16: { gac: 1 },
        21: { bat_T: 253 },
      }),
    );
    expect(v).toEqual({
      battery: 85.6,
      temperature: -5,
      humidity: 65.2,
      light: 120,
      vibration: 1.3,
      pressure: 101,
      mileage: 12345.6,
      door: 'open',
      batteryTemperature: 25.3,
    });
  });

  it('accepts the list form, a parsed object and an empty value', () => {
    expect(values('[{"id":3,"temp":45,"humidity":500},{"id":"16","gac":0}]')).toEqual({ temperature: 4.5, humidity: 50, door: 'closed' });
    expect(values({ 1: { batval: 199 } })).toEqual({ battery: 19.9 });
    expect(values('')).toEqual({});
    expect(values(undefined)).toEqual({});
  });

  it('keeps the raw blocks, unknown ones included', () => {
    const r = decodeExtraData('{"3":{"temp":33068},"99":{"x":1}}');
    expect(r).toEqual({ ok: true, values: { temperature: null }, raw: { 3: { temp: 33068 }, 99: { x: 1 } } });
  });

  it('rounds vibration to two decimals of g', () => {
    expect(decodeVibration(1, 1, 1)).toBe(0.17);
    expect(decodeVibration(0, 0, 0)).toBe(0);
    expect(decodeVibration(-10, 0, 0)).toBe(1);
  });

  it.each([
    ['{not json', 'extraData is not JSON'],
    ['42', 'extraData must be an object or a list of blocks'],
    ['{"3":[1,2]}', 'block 3 must be an object'],
    ['{"3":{"temp":"45"}}', 'block 3 field temp must be a number'],
    ['{"1":{"batval":true}}', 'block 1 field batval must be a number'],
    ['{"16":{"gac":2}}', 'block 16 field gac must be 0 (closed) or 1 (open)'],
    ['{"4":{"acc_x":1,"acc_y":2}}', 'block 4 needs acc_x, acc_y and acc_z together'],
    ['[{"temp":1}]', 'extraData list items need an id'],
    ['[5]', 'extraData list items must be objects'],
  ])('rejects %s: %s', (input, why) => {
    expect(reason(input)).toBe(why);
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        const r = decodeExtraData(text);
        expect(typeof r.ok).toBe('boolean');
      }),
    );
  });
});

describe('sensor dictionary', () => {
  it('names a unit and a label for every decoded value', () => {
    expect(SENSOR_FIELDS.map((f) => f.key).sort()).toEqual(
      ['battery', 'batteryTemperature', 'door', 'humidity', 'light', 'mileage', 'pressure', 'temperature', 'vibration'].sort(),
    );
    expect(SENSOR_FIELDS.find((f) => f.key === 'temperature')!.unit).toBe('°C');
  });

  it('calls a battery below 20 percent low', () => {
    expect(isBatteryLow(19.9)).toBe(true);
    expect(isBatteryLow(20)).toBe(false);
  });
});
