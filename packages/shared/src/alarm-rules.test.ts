// The alarm-rule evaluator: every threshold type fires past its threshold and not at it, a
// condition must hold its duration, an open alarm repeats with its peak and clears only past the
// hysteresis, old reports change nothing, schedules follow the local clock (across midnight and
// in any time zone), and the door, route, stay and offline rules open and clear as documented.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ALARM_TYPE_INFO, ruleSchema, type AlarmRuleInput, type AlarmType, type Schedule } from './alarm.ts';
import {
  distanceM,
  distanceToRouteM,
  evaluateRule,
  evaluateTick,
  inSchedule,
  TICKED_KINDS,
  type RuleEvent,
  type RuleSample,
  type RuleState,
} from './alarm-rules.ts';
import { PARKED_BELOW_KMH } from './live.ts';
import type { SensorValues } from './sensors.ts';

const LEVEL_ID = '8f14e45f-ceea-4e7a-9c1b-0a1b2c3d4e5f';

const makeRule = (input: Omit<AlarmRuleInput, 'id' | 'levelId'>) => ruleSchema.parse({ id: 'r1', levelId: LEVEL_ID, ...input });

/** Monday 2026-11-23 00:00 UTC (08:00 in Shanghai). */
const T0 = Date.parse('2026-11-23T00:00:00Z');
const at = (seconds: number) => T0 + seconds * 1000;
const utc = (iso: string) => Date.parse(iso);

const sample = (seconds: number, sensors: SensorValues = {}, extra: Partial<Omit<RuleSample, 'sensors'>> = {}): RuleSample => ({
  time: at(seconds),
  lat: null,
  lon: null,
  speed: null,
  sensors,
  ...extra,
});

const pending = (since: number, lastAt: number, peak: number | null): RuleState => ({ phase: 'pending', since, lastAt, peak });
const active = (since: number, lastAt: number, peak: number | null): RuleState => ({ phase: 'active', since, lastAt, peak });

const shanghaiWorkHours: Schedule = { days: [1, 2, 3, 4, 5], start: '08:00', end: '18:00', timezone: 'Asia/Shanghai' };

// ---- threshold types

type ThresholdCase = { type: AlarmType; direction: 'above' | 'below'; threshold: number; past: number; write: (v: number) => Partial<RuleSample> };

const inSensors = (key: keyof SensorValues) => (v: number) => ({ sensors: { [key]: v } as SensorValues });

const THRESHOLD_CASES: ThresholdCase[] = [
  { type: 'temp_high', direction: 'above', threshold: 8, past: 8.1, write: inSensors('temperature') },
  { type: 'temp_low', direction: 'below', threshold: 2, past: 1.9, write: inSensors('temperature') },
  { type: 'humidity_high', direction: 'above', threshold: 80, past: 80.5, write: inSensors('humidity') },
  { type: 'humidity_low', direction: 'below', threshold: 20, past: 19.5, write: inSensors('humidity') },
  { type: 'vibration', direction: 'above', threshold: 2, past: 2.01, write: inSensors('vibration') },
  { type: 'light', direction: 'above', threshold: 50, past: 51, write: inSensors('light') },
  { type: 'pressure', direction: 'below', threshold: 80, past: 79.9, write: inSensors('pressure') },
  { type: 'low_battery', direction: 'below', threshold: ALARM_TYPE_INFO.low_battery.threshold, past: 19, write: inSensors('battery') },
  { type: 'battery_temp', direction: 'above', threshold: 55, past: 55.5, write: inSensors('batteryTemperature') },
  { type: 'overspeed', direction: 'above', threshold: 100, past: 101, write: (v) => ({ speed: v }) },
];

const withValue = (c: ThresholdCase, seconds: number, v: number): RuleSample => ({ ...sample(seconds), ...c.write(v) });

describe('threshold rules', () => {
  it('uses the documented direction for each type, and 20 % as the default low battery threshold', () => {
    for (const c of THRESHOLD_CASES) expect(ALARM_TYPE_INFO[c.type].kind).toBe(c.direction);
    expect(ALARM_TYPE_INFO.low_battery.threshold).toBe(20);
  });

  describe.each(THRESHOLD_CASES)('$type (fires $direction $threshold)', (c) => {
    const rule = makeRule({ type: c.type, threshold: c.threshold });

    it('opens an alarm as soon as the value is past the threshold', () => {
      const r = evaluateRule(rule, null, withValue(c, 0, c.past));
      expect(r.event).toEqual({ kind: 'open', startedAt: at(0), at: at(0), value: c.past, peak: c.past });
      expect(r.state).toEqual(active(at(0), at(0), c.past));
    });

    it('does not fire at exactly the threshold', () => {
      expect(evaluateRule(rule, null, withValue(c, 0, c.threshold))).toEqual({ state: null, event: null });
    });

    it('ignores a report that does not carry the value', () => {
      const kept = pending(at(0), at(0), c.past);
      const r = evaluateRule(rule, kept, sample(10, { door: 'open' }));
      expect(r.state).toBe(kept);
      expect(r.event).toBeNull();
      expect(evaluateRule(rule, null, sample(10))).toEqual({ state: null, event: null });
    });
  });

  it('treats a temperature sensor with no reading (null) as no value', () => {
    const rule = makeRule({ type: 'temp_high', threshold: 8 });
    const kept = active(at(0), at(0), 9);
    const r = evaluateRule(rule, kept, sample(10, { temperature: null }));
    expect(r.state).toBe(kept);
    expect(r.event).toBeNull();
  });
});

// ---- duration

describe('a condition that must hold for a while', () => {
  const rule = makeRule({ type: 'temp_high', threshold: 8, durationS: 60 });

  it('waits (pending, no event) while the condition has held only 30 s', () => {
    const first = evaluateRule(rule, null, sample(0, { temperature: 9 }));
    expect(first).toEqual({ state: pending(at(0), at(0), 9), event: null });
    const second = evaluateRule(rule, first.state, sample(30, { temperature: 9.5 }));
    expect(second).toEqual({ state: pending(at(0), at(30), 9.5), event: null });
  });

  it('opens after 60 s, dated from when the condition began', () => {
    let state = evaluateRule(rule, null, sample(0, { temperature: 9 })).state;
    state = evaluateRule(rule, state, sample(30, { temperature: 9.5 })).state;
    const r = evaluateRule(rule, state, sample(60, { temperature: 9 }));
    expect(r.event).toEqual({ kind: 'open', startedAt: at(0), at: at(60), value: 9, peak: 9.5 });
    expect(r.state).toEqual(active(at(0), at(60), 9.5));
  });

  it('opens too when the next report comes well after 60 s', () => {
    const state = evaluateRule(rule, null, sample(0, { temperature: 9 })).state;
    const r = evaluateRule(rule, state, sample(95, { temperature: 8.5 }));
    expect(r.event).toMatchObject({ kind: 'open', startedAt: at(0), at: at(95) });
  });

  it('drops the waiting state when the value is back in range before 60 s, and starts over later', () => {
    const state = evaluateRule(rule, null, sample(0, { temperature: 9 })).state;
    const back = evaluateRule(rule, state, sample(30, { temperature: 7 }));
    expect(back).toEqual({ state: null, event: null });
    const again = evaluateRule(rule, back.state, sample(70, { temperature: 9 }));
    expect(again).toEqual({ state: pending(at(70), at(70), 9), event: null });
  });
});

// ---- repeat and clear

describe('an open alarm', () => {
  it('repeats with the highest value while above, stays open in the hysteresis band and clears below it', () => {
    const rule = makeRule({ type: 'temp_high', threshold: 8, hysteresis: 0.5 });
    const opened = evaluateRule(rule, null, sample(0, { temperature: 9 }));
    expect(opened.event?.kind).toBe('open');

    const r1 = evaluateRule(rule, opened.state, sample(10, { temperature: 10 }));
    expect(r1.event).toEqual({ kind: 'repeat', at: at(10), value: 10, peak: 10 });
    const r2 = evaluateRule(rule, r1.state, sample(20, { temperature: 9 }));
    expect(r2.event).toEqual({ kind: 'repeat', at: at(20), value: 9, peak: 10 });
    expect(r2.state).toEqual(active(at(0), at(20), 10));

    const band = evaluateRule(rule, r2.state, sample(30, { temperature: 7.8 }));
    expect(band.event).toBeNull();
    expect(band.state).toEqual(active(at(0), at(30), 10));
    const atThreshold = evaluateRule(rule, band.state, sample(40, { temperature: 8 }));
    expect(atThreshold.event).toBeNull();
    expect(atThreshold.state?.phase).toBe('active');

    const cleared = evaluateRule(rule, atThreshold.state, sample(50, { temperature: 7.5 }));
    expect(cleared).toEqual({ state: null, event: { kind: 'clear', at: at(50), value: 7.5 } });
  });

  it('repeats with the lowest value while below, stays open in the hysteresis band and clears above it', () => {
    const rule = makeRule({ type: 'temp_low', threshold: 2, hysteresis: 0.5 });
    const opened = evaluateRule(rule, null, sample(0, { temperature: 1 }));
    expect(opened.event).toEqual({ kind: 'open', startedAt: at(0), at: at(0), value: 1, peak: 1 });

    const r1 = evaluateRule(rule, opened.state, sample(10, { temperature: 0 }));
    expect(r1.event).toEqual({ kind: 'repeat', at: at(10), value: 0, peak: 0 });
    const r2 = evaluateRule(rule, r1.state, sample(20, { temperature: 1.5 }));
    expect(r2.event).toEqual({ kind: 'repeat', at: at(20), value: 1.5, peak: 0 });

    const band = evaluateRule(rule, r2.state, sample(30, { temperature: 2.2 }));
    expect(band.event).toBeNull();
    expect(band.state).toEqual(active(at(0), at(30), 0));

    const cleared = evaluateRule(rule, band.state, sample(40, { temperature: 2.5 }));
    expect(cleared).toEqual({ state: null, event: { kind: 'clear', at: at(40), value: 2.5 } });
  });
});

// ---- out of order

describe('reports out of order', () => {
  const rule = makeRule({ type: 'temp_high', threshold: 8, hysteresis: 0.5 });

  it('ignores a report older than the last one evaluated, even one that would clear the alarm', () => {
    const open = active(at(0), at(60), 10);
    const r = evaluateRule(rule, open, sample(30, { temperature: 5 }));
    expect(r.state).toBe(open);
    expect(r.event).toBeNull();
  });

  it('ignores an older report while waiting, even one that would drop the wait', () => {
    const wait = pending(at(0), at(60), 9);
    const r = evaluateRule(rule, wait, sample(30, { temperature: 5 }));
    expect(r.state).toBe(wait);
    expect(r.event).toBeNull();
  });

  it('still evaluates a report at the same time as the last one', () => {
    const r = evaluateRule(rule, active(at(0), at(60), 10), sample(60, { temperature: 5 }));
    expect(r.event?.kind).toBe('clear');
  });
});

// ---- schedules

describe('inSchedule', () => {
  it('is inside 08:00-18:00 Mon-Fri in Shanghai at 08:30 on a Monday, outside at 18:30', () => {
    expect(inSchedule(shanghaiWorkHours, utc('2026-11-23T00:30:00Z'))).toBe(true); // Mon 08:30
    expect(inSchedule(shanghaiWorkHours, utc('2026-11-23T10:30:00Z'))).toBe(false); // Mon 18:30
  });

  it('includes the start minute and excludes the end minute', () => {
    expect(inSchedule(shanghaiWorkHours, utc('2026-11-23T00:00:00Z'))).toBe(true); // Mon 08:00
    expect(inSchedule(shanghaiWorkHours, utc('2026-11-22T23:59:00Z'))).toBe(false); // Mon 07:59
    expect(inSchedule(shanghaiWorkHours, utc('2026-11-23T09:59:00Z'))).toBe(true); // Mon 17:59
    expect(inSchedule(shanghaiWorkHours, utc('2026-11-23T10:00:00Z'))).toBe(false); // Mon 18:00
  });

  it('is outside on a day not listed', () => {
    expect(inSchedule(shanghaiWorkHours, utc('2026-11-28T02:00:00Z'))).toBe(false); // Sat 10:00
    expect(inSchedule(shanghaiWorkHours, utc('2026-11-29T02:00:00Z'))).toBe(false); // Sun 10:00
  });

  describe('a 22:00-06:00 window listed for Friday only', () => {
    const fridayNight: Schedule = { days: [5], start: '22:00', end: '06:00', timezone: 'Asia/Shanghai' };

    it('is inside on Friday at 23:00', () => {
      expect(inSchedule(fridayNight, utc('2026-11-27T15:00:00Z'))).toBe(true);
    });

    it("is inside on Saturday at 05:00 (the end of Friday's window)", () => {
      expect(inSchedule(fridayNight, utc('2026-11-27T21:00:00Z'))).toBe(true);
    });

    it('is outside on Saturday at 06:00 and at 23:00', () => {
      expect(inSchedule(fridayNight, utc('2026-11-27T22:00:00Z'))).toBe(false);
      expect(inSchedule(fridayNight, utc('2026-11-28T15:00:00Z'))).toBe(false);
    });

    it('is outside on Friday at 05:00 unless Thursday is listed too', () => {
      const friday5 = utc('2026-11-26T21:00:00Z');
      expect(inSchedule(fridayNight, friday5)).toBe(false);
      expect(inSchedule({ ...fridayNight, days: [4, 5] }, friday5)).toBe(true);
    });

    it('runs from Sunday night into Monday morning when Sunday is listed', () => {
      const sundayNight: Schedule = { ...fridayNight, days: [7] };
      expect(inSchedule(sundayNight, utc('2026-11-22T21:00:00Z'))).toBe(true); // Mon 05:00
      expect(inSchedule(sundayNight, utc('2026-11-23T21:00:00Z'))).toBe(false); // Tue 05:00
    });
  });

  it('gives different answers for the same instant in New York and London', () => {
    const ny: Schedule = { days: [1, 2, 3, 4, 5], start: '08:00', end: '18:00', timezone: 'America/New_York' };
    const london: Schedule = { ...ny, timezone: 'Europe/London' };
    const morning = utc('2026-11-23T09:00:00Z'); // London Mon 09:00, New York Mon 04:00
    const evening = utc('2026-11-23T20:00:00Z'); // London Mon 20:00, New York Mon 15:00
    expect(inSchedule(london, morning)).toBe(true);
    expect(inSchedule(ny, morning)).toBe(false);
    expect(inSchedule(london, evening)).toBe(false);
    expect(inSchedule(ny, evening)).toBe(true);
  });

  it('takes equal start and end as the whole of each listed day', () => {
    const mondays: Schedule = { days: [1], start: '09:00', end: '09:00', timezone: 'Asia/Shanghai' };
    expect(inSchedule(mondays, utc('2026-11-22T16:00:00Z'))).toBe(true); // Mon 00:00
    expect(inSchedule(mondays, utc('2026-11-23T00:30:00Z'))).toBe(true); // Mon 08:30
    expect(inSchedule(mondays, utc('2026-11-23T15:59:00Z'))).toBe(true); // Mon 23:59
    expect(inSchedule(mondays, utc('2026-11-22T15:59:00Z'))).toBe(false); // Sun 23:59
    expect(inSchedule(mondays, utc('2026-11-23T16:00:00Z'))).toBe(false); // Tue 00:00
  });
});

describe('a rule with a schedule', () => {
  const tempAt = (iso: string, temperature: number): RuleSample => ({ time: utc(iso), lat: null, lon: null, speed: null, sensors: { temperature } });

  it('opens inside the schedule', () => {
    const rule = makeRule({ type: 'temp_high', threshold: 8, schedule: shanghaiWorkHours });
    expect(evaluateRule(rule, null, tempAt('2026-11-23T00:30:00Z', 9)).event?.kind).toBe('open');
  });

  it('does not open outside the schedule', () => {
    const rule = makeRule({ type: 'temp_high', threshold: 8, schedule: shanghaiWorkHours });
    expect(evaluateRule(rule, null, tempAt('2026-11-23T10:30:00Z', 9))).toEqual({ state: null, event: null });
  });

  it('drops a waiting condition when the schedule ends', () => {
    const rule = makeRule({ type: 'temp_high', threshold: 8, durationS: 60, schedule: shanghaiWorkHours });
    const wait = evaluateRule(rule, null, tempAt('2026-11-23T09:59:30Z', 9)); // 17:59:30
    expect(wait.state?.phase).toBe('pending');
    const after = evaluateRule(rule, wait.state, tempAt('2026-11-23T10:00:30Z', 9)); // 18:00:30
    expect(after).toEqual({ state: null, event: null });
  });

  it('still clears an open alarm outside the schedule', () => {
    const rule = makeRule({ type: 'temp_high', threshold: 8, hysteresis: 0.5, schedule: shanghaiWorkHours });
    const opened = evaluateRule(rule, null, tempAt('2026-11-23T09:00:00Z', 9)); // 17:00
    expect(opened.event?.kind).toBe('open');
    const cleared = evaluateRule(rule, opened.state, tempAt('2026-11-23T10:30:00Z', 7)); // 18:30
    expect(cleared).toEqual({ state: null, event: { kind: 'clear', at: utc('2026-11-23T10:30:00Z'), value: 7 } });
  });

  it('keeps an open alarm open outside the schedule while the value is still past the threshold', () => {
    const rule = makeRule({ type: 'temp_high', threshold: 8, schedule: shanghaiWorkHours });
    const opened = evaluateRule(rule, null, tempAt('2026-11-23T09:00:00Z', 9));
    const later = evaluateRule(rule, opened.state, tempAt('2026-11-23T10:30:00Z', 9.5));
    expect(later.state?.phase).toBe('active');
    expect(later.event).toMatchObject({ kind: 'repeat', peak: 9.5 });
  });
});

// ---- door

describe('door_abnormal', () => {
  const depot = { name: 'Depot', lat: 31.2304, lon: 121.4737, radiusM: 200 };
  const far = { lat: 31.3, lon: 121.6 };
  const near = { lat: 31.2309, lon: 121.4737 }; // about 56 m north of the depot's centre
  const doorAt = (seconds: number, door: 'open' | 'closed', pos: { lat: number; lon: number } | null) =>
    sample(seconds, { door }, pos ?? {});

  it('fires on a door opened outside any place with no allowed times', () => {
    const rule = makeRule({ type: 'door_abnormal', threshold: 0, places: [depot] });
    const r = evaluateRule(rule, null, doorAt(0, 'open', far));
    expect(r.event).toEqual({ kind: 'open', startedAt: at(0), at: at(0), value: null, peak: null });
    expect(r.state?.phase).toBe('active');
  });

  it('fires on a door opened where the position is unknown', () => {
    const rule = makeRule({ type: 'door_abnormal', threshold: 0, places: [depot] });
    expect(evaluateRule(rule, null, doorAt(0, 'open', null)).event?.kind).toBe('open');
  });

  it('does not fire on a door opened inside an allowed place', () => {
    const rule = makeRule({ type: 'door_abnormal', threshold: 0, places: [depot] });
    expect(evaluateRule(rule, null, doorAt(0, 'open', near))).toEqual({ state: null, event: null });
  });

  it('does not fire on a door opened within the allowed times, and fires outside them', () => {
    const rule = makeRule({ type: 'door_abnormal', threshold: 0, allowedTimes: shanghaiWorkHours });
    const inHours: RuleSample = { time: utc('2026-11-23T00:30:00Z'), lat: far.lat, lon: far.lon, speed: null, sensors: { door: 'open' } };
    expect(evaluateRule(rule, null, inHours)).toEqual({ state: null, event: null });
    expect(evaluateRule(rule, null, { ...inHours, time: utc('2026-11-23T10:30:00Z') }).event?.kind).toBe('open');
  });

  it('clears when the door is closed', () => {
    const rule = makeRule({ type: 'door_abnormal', threshold: 0 });
    const r = evaluateRule(rule, active(at(0), at(0), null), doorAt(10, 'closed', far));
    expect(r).toEqual({ state: null, event: { kind: 'clear', at: at(10), value: null } });
  });

  it('clears when the vehicle with the door open reaches an allowed place', () => {
    const rule = makeRule({ type: 'door_abnormal', threshold: 0, places: [depot] });
    const r = evaluateRule(rule, active(at(0), at(0), null), doorAt(10, 'open', near));
    expect(r.event?.kind).toBe('clear');
    expect(r.state).toBeNull();
  });

  it('ignores a report without a door value', () => {
    const rule = makeRule({ type: 'door_abnormal', threshold: 0 });
    const open = active(at(0), at(0), null);
    const r = evaluateRule(rule, open, sample(10, { temperature: 5 }, far));
    expect(r.state).toBe(open);
    expect(r.event).toBeNull();
  });
});

// ---- yaw (off route)

describe('geometry', () => {
  it('puts one degree of latitude about 111,195 m apart', () => {
    expect(distanceM(0, 0, 1, 0)).toBeCloseTo(111_195, 0);
    expect(distanceM(30, 120, 31, 120)).toBeCloseTo(111_195, 0);
    expect(distanceM(31, 121, 31, 121)).toBe(0);
    expect(distanceM(0, 0, 1, 1)).toBeCloseTo(distanceM(1, 1, 0, 0), 6);
  });

  it('measures a point 0.01 degree north of an east-west segment on the equator as about 1112 m away', () => {
    expect(distanceToRouteM(0.01, 0.05, [[0, 0], [0, 0.1]])).toBeCloseTo(1111.95, 1);
  });

  it('measures to the nearest end when the point is beyond the segment', () => {
    // 0.1 degree of longitude east of the segment's end, on the equator.
    expect(distanceToRouteM(0, 0.2, [[0, 0], [0, 0.1]])).toBeCloseTo(11_119.5, 0);
  });

  it('takes the nearest segment of a longer route', () => {
    const route: [number, number][] = [[0, 0], [0, 0.1], [0.1, 0.1]];
    // 0.01 degree west of the north-south leg.
    expect(distanceToRouteM(0.05, 0.09, route)).toBeCloseTo(1111.95 * Math.cos((0.05 * Math.PI) / 180), 0);
  });

  it('handles an empty route and a single point', () => {
    expect(distanceToRouteM(0, 0, [])).toBe(Infinity);
    expect(distanceToRouteM(1, 0, [[0, 0]])).toBeCloseTo(111_195, 0);
  });
});

describe('yaw', () => {
  const equator: [number, number][] = [[0, 0], [0, 0.1]];
  const rule = makeRule({ type: 'yaw', threshold: 500, hysteresis: 100, route: equator });
  const pos = (seconds: number, lat: number | null, lon: number | null) => sample(seconds, {}, { lat, lon });

  it('fires when the position is farther from the route than the threshold, with the rounded distance', () => {
    const r = evaluateRule(rule, null, pos(0, 0.01, 0.05));
    expect(r.event).toEqual({ kind: 'open', startedAt: at(0), at: at(0), value: 1112, peak: 1112 });
  });

  it('does not fire within the threshold', () => {
    expect(evaluateRule(rule, null, pos(0, 0.004, 0.05))).toEqual({ state: null, event: null }); // ~445 m
  });

  it('stays open between threshold - hysteresis and the threshold, and clears within it', () => {
    const opened = evaluateRule(rule, null, pos(0, 0.01, 0.05));
    const band = evaluateRule(rule, opened.state, pos(10, 0.004, 0.05)); // ~445 m
    expect(band.event).toBeNull();
    expect(band.state?.phase).toBe('active');
    const cleared = evaluateRule(rule, band.state, pos(20, 0.0035, 0.05)); // ~389 m
    expect(cleared).toEqual({ state: null, event: { kind: 'clear', at: at(20), value: 389 } });
  });

  it("uses the task's route from the context instead of the rule's", () => {
    const north: [number, number][] = [[1, 0], [1, 0.1]];
    expect(evaluateRule(rule, null, pos(0, 1, 0.05), { route: north })).toEqual({ state: null, event: null });
    expect(evaluateRule(rule, null, pos(0, 1, 0.05)).event?.kind).toBe('open');
    const offTask = evaluateRule(rule, null, pos(0, 0, 0.05), { route: north });
    expect(offTask.event).toMatchObject({ kind: 'open', value: 111_195 });
  });

  it("keeps the rule's route when the context route has fewer than two points", () => {
    expect(evaluateRule(rule, null, pos(0, 0, 0.05), { route: [[1, 0]] })).toEqual({ state: null, event: null });
  });

  it('ignores a report when there is no route at all', () => {
    const noRoute = makeRule({ type: 'yaw', threshold: 500 });
    const open = active(at(0), at(0), 1112);
    const r = evaluateRule(noRoute, open, pos(10, 5, 5));
    expect(r.state).toBe(open);
    expect(r.event).toBeNull();
    expect(evaluateRule(noRoute, null, pos(10, 5, 5), { route: [] })).toEqual({ state: null, event: null });
  });

  it('ignores a report without a position', () => {
    const open = active(at(0), at(0), 1112);
    const r = evaluateRule(rule, open, pos(10, null, null));
    expect(r.state).toBe(open);
    expect(r.event).toBeNull();
  });
});

// ---- stay_timeout

describe('stay_timeout', () => {
  const depot = { name: 'Depot', lat: 31.2304, lon: 121.4737, radiusM: 200 };
  const rule = makeRule({ type: 'stay_timeout', threshold: 600, places: [depot] });
  const outside = { lat: 31.3, lon: 121.6 };
  const inside = { lat: 31.2305, lon: 121.4738 };
  const moving = (seconds: number, speed: number | null, where: { lat: number; lon: number } = outside) =>
    sample(seconds, {}, { speed, ...where });

  it('starts waiting at the first stopped report', () => {
    expect(evaluateRule(rule, null, moving(0, 0))).toEqual({ state: pending(at(0), at(0), 0), event: null });
  });

  it('keeps waiting while stopped for less than the threshold', () => {
    const first = evaluateRule(rule, null, moving(0, 0));
    const r = evaluateRule(rule, first.state, moving(300, 1));
    expect(r).toEqual({ state: pending(at(0), at(300), 300), event: null });
  });

  it('opens once stopped for the threshold, dated from the first stopped report', () => {
    const first = evaluateRule(rule, null, moving(0, 0));
    const r = evaluateRule(rule, first.state, moving(600, 2));
    expect(r.event).toEqual({ kind: 'open', startedAt: at(0), at: at(600), value: 600, peak: 600 });
    expect(r.state).toEqual(active(at(0), at(600), 600));
  });

  it(`counts ${PARKED_BELOW_KMH} km/h and faster as moving`, () => {
    expect(evaluateRule(rule, null, moving(0, PARKED_BELOW_KMH))).toEqual({ state: null, event: null });
    expect(evaluateRule(rule, pending(at(0), at(0), 0), moving(300, PARKED_BELOW_KMH))).toEqual({ state: null, event: null });
  });

  it('clears an open stay when the vehicle moves', () => {
    const r = evaluateRule(rule, active(at(0), at(600), 600), moving(700, 40));
    expect(r).toEqual({ state: null, event: { kind: 'clear', at: at(700), value: 0 } });
  });

  it('does not count time stopped inside an allowed place', () => {
    expect(evaluateRule(rule, null, moving(0, 0, inside))).toEqual({ state: null, event: null });
    expect(evaluateRule(rule, pending(at(0), at(0), 0), moving(700, 0, inside))).toEqual({ state: null, event: null });
  });

  it('ignores a report without a speed', () => {
    const wait = pending(at(0), at(0), 0);
    const r = evaluateRule(rule, wait, moving(300, null));
    expect(r.state).toBe(wait);
    expect(r.event).toBeNull();
  });

  it('opens on the scheduler tick once the threshold has passed, without a new report', () => {
    const wait = evaluateRule(rule, null, moving(0, 0)).state;
    const early = evaluateTick(rule, wait, at(599), at(0));
    expect(early.event).toBeNull();
    expect(early.state?.phase).toBe('pending');
    const r = evaluateTick(rule, early.state, at(600), at(0));
    expect(r.event).toEqual({ kind: 'open', startedAt: at(0), at: at(600), value: 600, peak: 600 });
    expect(r.state?.phase).toBe('active');
  });

  it('grows the open stay on later ticks, without counting a repeat', () => {
    const wait = evaluateRule(rule, null, moving(0, 0)).state;
    const opened = evaluateTick(rule, wait, at(600), at(0));
    const later = evaluateTick(rule, opened.state, at(900), at(0));
    expect(later.event).toEqual({ kind: 'grow', at: at(900), value: 900, peak: 900 });
  });

  it('does nothing on a tick when the vehicle is not stopped', () => {
    expect(evaluateTick(rule, null, at(5000), at(0))).toEqual({ state: null, event: null });
  });
});

// ---- offline

describe('offline', () => {
  const rule = makeRule({ type: 'offline', threshold: 1800 });
  const lastSeen = at(0);

  it('is a rule the scheduler ticks, like stay_timeout, and unlike the threshold rules', () => {
    expect(TICKED_KINDS.has(ALARM_TYPE_INFO.offline.kind)).toBe(true);
    expect(TICKED_KINDS.has(ALARM_TYPE_INFO.stay_timeout.kind)).toBe(true);
    expect(TICKED_KINDS.has(ALARM_TYPE_INFO.temp_high.kind)).toBe(false);
  });

  it('does not open before the device has been silent for the threshold', () => {
    expect(evaluateTick(rule, null, at(1799), lastSeen)).toEqual({ state: null, event: null });
    expect(evaluateTick(rule, null, at(1800) - 1, lastSeen)).toEqual({ state: null, event: null });
  });

  it('opens once the silence reaches the threshold, dated from when it passed the threshold', () => {
    const r = evaluateTick(rule, null, at(1800), lastSeen);
    expect(r.event).toEqual({ kind: 'open', startedAt: at(1800), at: at(1800), value: 1800, peak: 1800 });
    expect(r.state).toEqual(active(at(1800), at(1800), 1800));
  });

  it('dates a late-noticed silence from lastSeenAt + threshold, not from the tick', () => {
    const r = evaluateTick(rule, null, at(2000), lastSeen);
    expect(r.event).toEqual({ kind: 'open', startedAt: at(1800), at: at(2000), value: 2000, peak: 2000 });
  });

  it('grows its value and peak on later ticks without opening again or counting a repeat', () => {
    const opened = evaluateTick(rule, null, at(1800), lastSeen);
    const later = evaluateTick(rule, opened.state, at(2400), lastSeen);
    expect(later.event).toEqual({ kind: 'grow', at: at(2400), value: 2400, peak: 2400 });
    expect(later.state).toEqual(active(at(1800), at(2400), 2400));
  });

  it('clears on any report', () => {
    const opened = evaluateTick(rule, null, at(1800), lastSeen);
    const r = evaluateRule(rule, opened.state, sample(2500));
    expect(r).toEqual({ state: null, event: { kind: 'clear', at: at(2500), value: null } });
  });

  it('clears on a report whose device time is behind the tick that opened it (a device sending what it buffered)', () => {
    const opened = evaluateTick(rule, null, at(2400), lastSeen);
    const r = evaluateRule(rule, opened.state, sample(1900));
    expect(r).toEqual({ state: null, event: { kind: 'clear', at: at(1900), value: null } });
  });

  it('does nothing on a report when no alarm is open', () => {
    expect(evaluateRule(rule, null, sample(10, { temperature: 5 }))).toEqual({ state: null, event: null });
  });

  it('never opens for a device that has never reported', () => {
    expect(evaluateTick(rule, null, at(1_000_000), null)).toEqual({ state: null, event: null });
  });

  it('does not open outside its schedule', () => {
    const scheduled = makeRule({ type: 'offline', threshold: 1800, schedule: shanghaiWorkHours });
    // Silent since Mon 17:00 Shanghai, checked at 19:00.
    expect(evaluateTick(scheduled, null, utc('2026-11-23T11:00:00Z'), utc('2026-11-23T09:00:00Z'))).toEqual({ state: null, event: null });
    // Silent since Mon 08:00, checked at 10:00.
    expect(evaluateTick(scheduled, null, utc('2026-11-23T02:00:00Z'), utc('2026-11-23T00:00:00Z')).event?.kind).toBe('open');
  });
});

// ---- property

describe('the event sequence of a threshold rule', () => {
  it('alternates open, repeats, clear, and only opens past the threshold', () => {
    const threshold = 8;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 160 }).map((t) => t / 10), { maxLength: 60 }),
        fc.constantFrom(0, 0.5, 2),
        fc.array(fc.integer({ min: 0, max: 120_000 }), { minLength: 60, maxLength: 60 }),
        (temperatures, hysteresis, gaps) => {
          const rule = makeRule({ type: 'temp_high', threshold, hysteresis, durationS: 0 });
          let state: RuleState | null = null;
          let time = T0;
          let open = false;
          const events: RuleEvent[] = [];
          temperatures.forEach((temperature, i) => {
            time += gaps[i]!;
            const r = evaluateRule(rule, state, { time, lat: null, lon: null, speed: null, sensors: { temperature } });
            state = r.state;
            if (r.event) events.push(r.event);
            switch (r.event?.kind) {
              case 'open':
                expect(open).toBe(false);
                expect(r.event.value).toBeGreaterThan(threshold);
                open = true;
                break;
              case 'repeat':
                expect(open).toBe(true);
                expect(r.event.value).toBeGreaterThan(threshold);
                break;
              case 'clear':
                expect(open).toBe(true);
                expect(r.event.value).toBeLessThanOrEqual(threshold - hysteresis);
                open = false;
                break;
            }
            // With no duration there is never a wait: open exactly when the state is active.
            expect(state === null ? false : state.phase === 'active').toBe(open);
          });
          // The kinds read as (open repeat* clear)* with possibly a last open run.
          expect(
            events
              .map((e) => e.kind[0])
              .join('')
              .match(/^(or*c)*(or*)?$/),
          ).not.toBeNull();
        },
      ),
    );
  });
});
