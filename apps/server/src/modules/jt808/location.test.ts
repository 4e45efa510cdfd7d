// Location bodies: 0x0200 round trips (signs from the status bits, GMT+8 time, items), alarm bit
// codes, the 0x0704 batch and the 0x0201 answer, and what a malformed body gives.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { thrown } from './test-helpers.ts';
import {
  ALARM_CODES,
  alarmCodes,
  alarmFlags,
  decodeLocation,
  decodeLocationBatch,
  decodePositionAnswer,
  decodeTime,
  encodeLocation,
  encodeLocationBatch,
  encodePositionAnswer,
  encodeTime,
  type LocationInit,
} from './location.ts';

const micro = (max: number) => fc.integer({ min: -max * 1e6, max: max * 1e6 }).map((n) => n / 1e6);
const tenths = (max: number) => fc.integer({ min: 0, max: max * 10 }).map((n) => n / 10);
/** Whole seconds whose GMT+8 year is 2000-2099. */
const time = fc.integer({ min: Date.UTC(2000, 0, 1, -8) / 1000, max: Date.UTC(2099, 11, 31, 15, 59, 59) / 1000 }).map((s) => new Date(s * 1000));

const extras = fc.dictionary(
  fc.integer({ min: 0x04, max: 0xff }).filter((id) => id !== 0x30 && id !== 0x31).map((id) => `0x${id.toString(16).padStart(2, '0')}`),
  fc.uint8Array({ maxLength: 30 }).map((b) => Buffer.from(b).toString('hex')),
);

const locationArb: fc.Arbitrary<LocationInit> = fc.record(
  {
    alarm: fc.integer({ min: 0, max: 0xffffffff }),
    status: fc.integer({ min: 0, max: 0xffffffff }),
    latitude: micro(90),
    longitude: micro(180),
    altitude: fc.integer({ min: -500, max: 9000 }),
    speedKmh: tenths(6000),
    direction: fc.integer({ min: 0, max: 359 }),
    time: fc.option(time, { nil: null }),
    mileageKm: tenths(400_000_000),
    fuelLitres: tenths(6000),
    recorderSpeedKmh: tenths(6000),
    signal: fc.integer({ min: 0, max: 31 }),
    satellites: fc.integer({ min: 0, max: 60 }),
    extras,
  },
  { requiredKeys: ['alarm', 'status', 'latitude', 'longitude', 'time', 'extras'] },
);

describe('0x0200 location', () => {
  it('round-trips every field, with the signs carried by the south and west bits', () => {
    fc.assert(
      fc.property(locationArb, (init) => {
        const body = encodeLocation(init);
        const loc = decodeLocation(body);
        expect(loc.latitude).toBe(init.latitude === 0 ? 0 : init.latitude);
        expect(loc.longitude).toBe(init.longitude === 0 ? 0 : init.longitude);
        if (init.latitude !== 0) expect((loc.status & 4) !== 0).toBe(init.latitude < 0);
        if (init.longitude !== 0) expect((loc.status & 8) !== 0).toBe(init.longitude < 0);
        expect(loc.status & ~0b1100).toBe(init.status! & ~0b1100);
        expect(loc.acc).toBe((init.status! & 1) === 1);
        expect(loc.positioned).toBe((init.status! & 2) === 2);
        expect(loc.alarm).toBe(init.alarm);
        expect(loc.alarms).toEqual(alarmCodes(init.alarm!));
        expect(loc.time).toEqual(init.time);
        for (const key of ['altitude', 'speedKmh', 'direction', 'mileageKm', 'fuelLitres', 'recorderSpeedKmh', 'signal', 'satellites'] as const) {
          expect(loc[key]).toBe(init[key] ?? (['altitude', 'speedKmh', 'direction'].includes(key) ? 0 : undefined));
        }
        expect(loc.extras).toEqual(init.extras);
        expect(loc.trailing).toBeUndefined();
        // decoding is the inverse of encoding on what it decoded
        expect(encodeLocation(loc)).toEqual(body);
      }),
      { numRuns: 300 },
    );
  });

  it('lets acc and positioned override the status word', () => {
    const loc = decodeLocation(encodeLocation({ status: 0xffff0000, acc: true, positioned: true, latitude: -1, longitude: -2, time: null }));
    expect(loc.status).toBe(0xffff000f);
    expect(loc).toMatchObject({ acc: true, positioned: true, latitude: -1, longitude: -2 });
  });

  it('reads the fixed part at its offsets (28 bytes, BCD time in GMT+8)', () => {
    const body = Buffer.from('00000101' + '000c0003' + '01578cc0' + '06ca3a5c' + '0047' + '01f4' + '0167' + '140723172015', 'hex');
    expect(decodeLocation(body)).toEqual({
      alarm: 0x101,
      alarms: ['sos', 'power-cut'],
      status: 0x000c0003,
      acc: true,
      positioned: true,
      latitude: 22.51488, // 0x01578CC0
      longitude: 113.916508, // 0x06CA3A5C
      altitude: 71,
      speedKmh: 50,
      direction: 359,
      time: new Date('2014-07-23T09:20:15Z'),
      extras: {},
    });
  });

  it('keeps a known item of a non-standard length raw, and bytes past the last item as trailing', () => {
    const fixed = encodeLocation({ latitude: 0, longitude: 0, time: null });
    const loc = decodeLocation(Buffer.concat([fixed, Buffer.from('0102abcd' + '3001' + '05' + 'e403', 'hex')]));
    expect(loc.extras).toEqual({ '0x01': 'abcd' });
    expect(loc.signal).toBe(5);
    expect(loc.trailing).toBe('e403');
    expect(decodeLocation(Buffer.concat([fixed, Buffer.from('31', 'hex')])).trailing).toBe('31');
  });

  it('reads altitude below sea level', () => {
    expect(decodeLocation(encodeLocation({ latitude: 42.6, longitude: 89.2, altitude: -154, time: null })).altitude).toBe(-154);
  });

  it('refuses a body shorter than the fixed 28 bytes', () => {
    const body = encodeLocation({ latitude: 1, longitude: 1, time: new Date() });
    for (let n = 0; n < 28; n++) expect(thrown(() => decodeLocation(body.subarray(0, n))).code).toBe('short-body');
  });

  it('refuses extras it cannot send', () => {
    expect(thrown(() => encodeLocation({ latitude: 0, longitude: 0, time: null, extras: { '54': '00' } })).code).toBe('cannot-encode');
    expect(thrown(() => encodeLocation({ latitude: 0, longitude: 0, time: null, extras: { '0x54': 'xyz' } })).code).toBe('cannot-encode');
  });
});

describe('time', () => {
  it('converts GMT+8 BCD to UTC and back', () => {
    expect(decodeTime(Buffer.from('200101000000', 'hex'))).toEqual(new Date('2019-12-31T16:00:00Z'));
    expect(encodeTime(new Date('2019-12-31T16:00:00Z')).toString('hex')).toBe('200101000000');
    fc.assert(
      fc.property(time, (t) => {
        expect(decodeTime(encodeTime(t))).toEqual(t);
      }),
    );
  });

  it('gives null for what is not a time (zeros before a fix, impossible dates, non-BCD)', () => {
    for (const bad of ['000000000000', '210230120000', '211301000000', '210101240000', '2101011260ff', '21010112600a']) {
      expect(decodeTime(Buffer.from(bad, 'hex'))).toBeNull();
    }
    expect(encodeTime(null).toString('hex')).toBe('000000000000');
    expect(thrown(() => encodeTime(new Date('1999-12-31T00:00:00Z'))).code).toBe('cannot-encode');
  });
});

describe('alarm codes', () => {
  it('names all 32 bits once each', () => {
    expect(ALARM_CODES.length).toBe(32);
    expect(new Set(ALARM_CODES).size).toBe(32);
    for (const code of ALARM_CODES) expect(code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(alarmCodes(1 << 29)).toEqual(['collision']);
    expect(alarmCodes(0x80000000)).toEqual(['illegal-door-open']);
  });

  it('maps flags to codes and back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (flags) => {
        expect(alarmFlags(alarmCodes(flags))).toBe(flags);
      }),
    );
  });
});

describe('0x0704 batch and 0x0201 answer', () => {
  it('round-trips a batch of each type', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1 }), fc.array(locationArb, { maxLength: 5 }), (type, items) => {
        const body = encodeLocationBatch({ type, items });
        const batch = decodeLocationBatch(body);
        expect(batch.type).toBe(type);
        expect(batch.items.map((l) => encodeLocation(l))).toEqual(items.map((l) => encodeLocation(l)));
      }),
    );
  });

  it('refuses a batch cut short or with bytes after its items', () => {
    const body = encodeLocationBatch({ type: 1, items: [{ latitude: 1, longitude: 2, time: null }, { latitude: 3, longitude: 4, time: null }] });
    for (let n = 0; n < body.length; n++) expect(thrown(() => decodeLocationBatch(body.subarray(0, n))).code).toBe('short-body');
    expect(thrown(() => decodeLocationBatch(Buffer.concat([body, Buffer.from([0])]))).code).toBe('long-body');
  });

  it('round-trips a position query answer', () => {
    const location = { latitude: 31.230416, longitude: 121.473701, speedKmh: 12.5, time: new Date('2024-05-01T00:00:00Z'), satellites: 9 };
    const answer = decodePositionAnswer(encodePositionAnswer({ serial: 77, location }));
    expect(answer.serial).toBe(77);
    expect(answer.location).toMatchObject(location);
    expect(thrown(() => decodePositionAnswer(Buffer.from('00', 'hex'))).code).toBe('short-body');
  });
});
