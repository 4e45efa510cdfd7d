// The spec's section 9 conversions, each boundary included, and the rejection of broken blocks.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BLOCK_FIELDS, decodeExtraData, decodeTemperature, decodeVibration, isBatteryLow, SENSOR_FIELDS } from './sensors.ts';
import { deviceReportSchema } from './device.ts';

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

  it('never throws, whatever the text or value: either values or a reason', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue(), fc.anything()), (input) => {
        const r = decodeExtraData(input);
        if (r.ok) expect(typeof r.values).toBe('object');
        else expect(r.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a known field that is not a finite number, naming block and field', () => {
    const known = fc.constantFrom(...Object.entries(BLOCK_FIELDS).flatMap(([block, fields]) => fields.map((field) => [block, field] as const)));
    const notNumber = fc.oneof(fc.string(), fc.boolean(), fc.array(fc.integer(), { maxLength: 2 }), fc.object({ maxDepth: 1 }));
    fc.assert(
      fc.property(known, notNumber, ([block, field], v) => {
        const why = reason({ [block]: { [field]: v } });
        expect(why).toBe(`block ${block} field ${field} must be a number`);
      }),
    );
  });
});

/** Raw blocks of a valid report and the values they must decode to (spec section 9). */
const validBlocks = fc
  .record(
    {
      batval: fc.integer({ min: 0, max: 1000 }),
      temp: fc.integer({ min: 0, max: 65535 }),
      humidity: fc.integer({ min: 0, max: 1000 }),
      light: fc.integer({ min: 0, max: 100_000 }),
      acc: fc.tuple(fc.integer({ min: -2000, max: 2000 }), fc.integer({ min: -2000, max: 2000 }), fc.integer({ min: -2000, max: 2000 })),
      press: fc.integer({ min: 0, max: 2000 }),
      mileage: fc.integer({ min: 0, max: 10_000_000 }),
      gac: fc.constantFrom(0, 1),
      batT: fc.integer({ min: -400, max: 1000 }),
    },
    { requiredKeys: [] },
  )
  .map((g) => {
    const blocks: Record<string, Record<string, number>> = {};
    const expected: Record<string, unknown> = {};
    const put = (block: string, fields: Record<string, number>) => (blocks[block] = { ...blocks[block], ...fields });
    if (g.batval !== undefined) {
      put('1', { batval: g.batval });
      expected.battery = g.batval / 10;
    }
    if (g.temp !== undefined) {
      put('3', { temp: g.temp });
      expected.temperature = decodeTemperature(g.temp);
    }
    if (g.humidity !== undefined) {
      put('3', { humidity: g.humidity });
      expected.humidity = g.humidity / 10;
    }
    if (g.light !== undefined) {
      put('4', { light: g.light });
      expected.light = g.light;
    }
    if (g.acc !== undefined) {
      put('4', { acc_x: g.acc[0], acc_y: g.acc[1], acc_z: g.acc[2] });
      expected.vibration = decodeVibration(...g.acc);
    }
    if (g.press !== undefined) {
      put('4', { press: g.press });
      expected.pressure = g.press;
    }
    if (g.mileage !== undefined) {
      put('14', { mileage: g.mileage });
      expected.mileage = g.mileage / 10;
    }
    if (g.gac !== undefined) {
      put('16', { gac: g.gac });
      expected.door = g.gac === 1 ? 'open' : 'closed';
    }
    if (g.batT !== undefined) {
      put('21', { bat_T: g.batT });
      expected.batteryTemperature = g.batT / 10;
    }
    return { blocks, expected };
  });

describe('decodeExtraData on generated valid blocks', () => {
  it('decodes them to their values in the object form, the list form, as text and parsed', () => {
    fc.assert(
      fc.property(validBlocks, fc.dictionary(fc.constantFrom('2', '7', '99'), fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }), { maxKeys: 2 }), ({ blocks, expected }, unknown) => {
        // Unknown blocks ride along untouched and change nothing.
        const all = { ...unknown, ...blocks };
        const list = Object.entries(all).map(([id, fields]) => ({ ...fields, id: Number(id) }));
        for (const form of [all, JSON.stringify(all), list, JSON.stringify(list)]) {
          const r = decodeExtraData(form);
          expect(r.ok).toBe(true);
          if (r.ok) {
            expect(r.values).toEqual(expected);
            expect(r.raw['3']).toEqual(all['3']);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('deviceReportSchema', () => {
  const report = fc.record(
    {
      deviceId: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim().length > 0),
      time: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
      position: fc.option(fc.tuple(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true })), { nil: undefined }),
      speed: fc.option(fc.double({ min: 0, max: 1000, noNaN: true }), { nil: undefined }),
      extraData: fc.option(validBlocks.map((b) => JSON.stringify(b.blocks)), { nil: undefined }),
    },
    { requiredKeys: ['deviceId', 'time'] },
  );
  const toReport = (r: { deviceId: string; time: string; position?: [number, number]; speed?: number; extraData?: string }) => ({
    deviceId: r.deviceId,
    time: r.time,
    ...(r.position ? { lat: r.position[0], lon: r.position[1] } : {}),
    ...(r.speed !== undefined ? { speed: r.speed } : {}),
    ...(r.extraData !== undefined ? { extraData: r.extraData } : {}),
  });

  it('accepts every well-formed report and keeps its values', () => {
    fc.assert(
      fc.property(report, (r) => {
        const parsed = deviceReportSchema.safeParse(toReport(r));
        expect(parsed.success).toBe(true);
        if (parsed.success) expect(parsed.data.lat).toBe(r.position?.[0]);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a latitude without a longitude, or out of range, and never throws on anything', () => {
    fc.assert(
      fc.property(report, fc.double({ min: 90.000_001, noNaN: true }), (r, far) => {
        expect(deviceReportSchema.safeParse({ ...toReport(r), lat: 30, lon: undefined }).success).toBe(false);
        expect(deviceReportSchema.safeParse({ ...toReport(r), lat: far, lon: 10 }).success).toBe(false);
      }),
    );
    fc.assert(
      fc.property(fc.anything(), (v) => {
        expect(typeof deviceReportSchema.safeParse(v).success).toBe('boolean');
      }),
    );
  });
});

describe('sensor dictionary', () => {
  it('names a unit and a label for every decoded value', () => {
    expect(SENSOR_FIELDS.map((f) => f.key).sort()).toEqual(
      ['battery', 'batteryTemperature', 'door', 'humidity', 'light', 'mileage', 'pressure', 'temperature', 'vibration', 'fuel', 'signal', 'satellites'].sort(),
    );
    expect(SENSOR_FIELDS.find((f) => f.key === 'temperature')!.unit).toBe('°C');
  });

  it('calls a battery below 20 percent low', () => {
    expect(isBatteryLow(19.9)).toBe(true);
    expect(isBatteryLow(20)).toBe(false);
  });
});
