// Shipment temperature statistics: MKT against values worked by hand (USP <1160>, dH/R = 10 000 K),
// time-weighted against equal weights on uneven readings and across a data gap, MKT never below
// the mean, and the time out of range (cumulative, single longest, each excursion and how it
// ended) on a crafted series with limits hit exactly, a gap, a reading with no value and a jump
// from one side of the range to the other.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_MAX_GAP_S,
  meanKineticTemperature,
  mktOfValues,
  shipmentTempStatsSchema,
  temperatureStats,
  type TempReading,
} from './shipment.ts';

/** Monday 2026-11-23 00:00 UTC. */
const T0 = Date.parse('2026-11-23T00:00:00Z');
const min = (m: number) => T0 + m * 60_000;
const series = (points: [minute: number, value: number | null][]): TempReading[] => points.map(([m, value]) => ({ t: min(m), value }));

// Hand working uses a = dH/R = 83 144 / 8.3144 = 10 000 K and, for readability, each term
// relative to 25 C: e^(-a/T_i) = e^(-a/298.15) * f_i with f_i = e^(a/298.15 - a/T_i), so
//   MKT = a / (a/298.15 - ln(mean of f_i)) - 273.15.
// a/298.15 = 33.540164 (298.15 * 33.540164 = 9999.9999).

describe('mktOfValues (USP <1160>)', () => {
  it('gives the temperature itself for a constant temperature', () => {
    // Every term is e^(-a/T); their mean is the same term, and a / (a/T) = T.
    expect(mktOfValues([25, 25, 25, 25])).toBe(25);
    expect(mktOfValues([-18])).toBe(-18);
  });

  it('gives 26.26 C for 20 C and 30 C at equal weights (worked by hand)', () => {
    // a/293.15 = 34.112229, a/303.15 = 32.986970 (303.15 * 33 = 10 003.95; 33 - 3.95/303.15).
    // Factor out the larger term e^(-32.986970):
    //   mean = e^(-32.986970) * (1 + e^(-1.125259)) / 2
    //   e^(-1.125259) = e^-1 * e^-0.125259 = 0.367879 * 0.882268 = 0.324568
    //   (1 + 0.324568) / 2 = 0.662284;  ln 0.662284 = ln(2/3) + ln(0.993426) = -0.405465 - 0.006596 = -0.412061
    //   -ln(mean) = 32.986970 + 0.412061 = 33.399031
    //   Tk = 10 000 / 33.399031 = 299.4099 K = 26.26 C (not 25.57: a hotter reading weighs more).
    expect(mktOfValues([20, 30])).toBeCloseTo(26.26, 2);
    // The arithmetic mean is 25: MKT sits 1.26 C above it.
    expect(mktOfValues([20, 30])! - 25).toBeCloseTo(1.26, 2);
  });

  it('gives 23.98 C for twelve monthly means whose arithmetic mean is 23.42 C (worked by hand)', () => {
    // A storage room's monthly means, January to December, USP's use of the formula.
    const months = [19, 20, 21, 23, 25, 27, 28, 28, 26, 24, 21, 19];
    //   C    T (K)    a/T        f = e^(33.540164 - a/T)   months
    //   19   292.15   34.228992  0.502164                  2  -> 1.004329
    //   20   293.15   34.112229  0.564359                  1  -> 0.564359
    //   21   294.15   33.996260  0.633753                  2  -> 1.267506
    //   23   296.15   33.766672  0.797313                  1  -> 0.797313
    //   24   297.15   33.653037  0.893264                  1  -> 0.893264
    //   25   298.15   33.540164  1                         1  -> 1
    //   26   299.15   33.428046  1.118645                  1  -> 1.118645
    //   27   300.15   33.316675  1.250432                  1  -> 1.250432
    //   28   301.15   33.206043  1.396712                  2  -> 2.793424
    //   sum 10.689272; mean 0.890773; ln 0.890773 = ln 0.89 + ln 1.000868 = -0.116534 + 0.000868 = -0.115666
    //   -ln(mean term) = 33.540164 + 0.115666 = 33.655830
    //   Tk = 10 000 / 33.655830 = 297.1253 K = 23.98 C; arithmetic mean 281 / 12 = 23.42 C.
    expect(mktOfValues(months)).toBeCloseTo(23.98, 2);
    // The same months as readings a month apart, equal weights.
    const readings = months.map((value, i) => ({ t: Date.UTC(2026, i, 15), value }));
    expect(meanKineticTemperature(readings, { weighting: 'equal' })).toBeCloseTo(23.98, 2);
  });

  it('uses another activation energy when given one', () => {
    // 2 x 83 144 J/mol doubles a; a larger activation energy weighs the hot reading more.
    const usp = mktOfValues([20, 30])!;
    const steeper = mktOfValues([20, 30], undefined, 2 * 83_144)!;
    expect(steeper).toBeGreaterThan(usp);
    expect(steeper).toBeLessThan(30);
  });

  it('stays finite for deep-frozen and hot values, where the terms themselves would underflow', () => {
    // e^(-10 000 / 80.15) is about 1e-54 and still a double, but a = 100 000 K pushes it to
    // e^-1248, which is 0 in floating point: the log-sum-exp form still answers.
    const v = mktOfValues([-193, -190], undefined, 831_440)!;
    expect(v).toBeGreaterThan(-193);
    expect(v).toBeLessThan(-190);
  });

  it('answers null with nothing to average, and rejects what is not a temperature', () => {
    expect(mktOfValues([])).toBeNull();
    expect(mktOfValues([5, 6], [0, 0])).toBeNull();
    expect(() => mktOfValues([-300])).toThrow(RangeError);
    expect(() => mktOfValues([5], [-1])).toThrow(RangeError);
  });

  it('is never below the (weighted) arithmetic mean, nor outside the values (Jensen: e^(-a/T) is convex below a/2 K)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: -40, max: 70, noNaN: true }), fc.double({ min: 0.001, max: 1000, noNaN: true })), { minLength: 1, maxLength: 50 }),
        (pairs) => {
          const values = pairs.map(([v]) => v);
          const weights = pairs.map(([, w]) => w);
          const wSum = weights.reduce((s, w) => s + w, 0);
          const weightedMean = pairs.reduce((s, [v, w]) => s + v * w, 0) / wSum;
          const plainMean = values.reduce((s, v) => s + v, 0) / values.length;
          const tw = mktOfValues(values, weights)!;
          const eq = mktOfValues(values)!;
          expect(tw).toBeGreaterThanOrEqual(weightedMean - 1e-9);
          expect(eq).toBeGreaterThanOrEqual(plainMean - 1e-9);
          for (const m of [tw, eq]) {
            expect(m).toBeGreaterThanOrEqual(Math.min(...values));
            expect(m).toBeLessThanOrEqual(Math.max(...values));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('meanKineticTemperature of logger readings', () => {
  // 5 C, a short spike to 25 C, 5 C again: 40 minutes at 5 C, 5 minutes at 25 C.
  const uneven = series([
    [0, 5],
    [20, 25],
    [25, 5],
  ]);
  const to = min(45);
  // With f = e^(33.540164 - a/278.15) = e^(33.540164 - 35.951825) = e^(-2.411660) = 0.089666:
  //   time-weighted 8:1  -> (8 * 0.089666 + 1) / 9 = 0.190814; ln = -1.656454;
  //                         10 000 / (33.540164 + 1.656454) = 284.1182 K = 10.97 C
  //   equal weights 2:1  -> (2 * 0.089666 + 1) / 3 = 0.393111; ln = -0.933664;
  //                         10 000 / (33.540164 + 0.933664) = 290.0751 K = 16.93 C

  it('weights each reading by the time until the next one by default (10.97 C, worked by hand)', () => {
    expect(meanKineticTemperature(uneven, { to })).toBeCloseTo(10.97, 2);
  });

  it('counts each reading once with equal weights (16.93 C, worked by hand): the short spike counts as a third', () => {
    expect(meanKineticTemperature(uneven, { to, weighting: 'equal' })).toBeCloseTo(16.93, 2);
  });

  it('lets a reading stand for at most maxGapS, so a silent logger does not hold its last value for hours', () => {
    // 5 C, then nothing for 6 hours, then 25 C for 10 minutes. Capped at 30 minutes the weights
    // are 30:10 = 3:1: (3 * 0.089666 + 1) / 4 = 0.317250; ln = -1.148066;
    //   10 000 / (33.540164 + 1.148066) = 288.2822 K = 15.13 C.
    // Uncapped 360:10 = 36:1: (36 * 0.089666 + 1) / 37 = 0.114270; ln = -2.169192;
    //   10 000 / (33.540164 + 2.169192) = 280.0387 K = 6.89 C.
    const gap = series([
      [0, 5],
      [360, 25],
    ]);
    expect(DEFAULT_MAX_GAP_S).toBe(30 * 60);
    expect(meanKineticTemperature(gap, { to: min(370) })).toBeCloseTo(15.13, 2);
    expect(meanKineticTemperature(gap, { to: min(370), maxGapS: Infinity })).toBeCloseTo(6.89, 2);
  });

  it('skips readings with no value, and the time after them', () => {
    const withNull = series([
      [0, 5],
      [20, 25],
      [25, 5],
      [45, null],
    ]);
    expect(meanKineticTemperature(withNull, { to: min(90) })).toBeCloseTo(10.97, 2);
  });

  it('falls back to equal weights when the readings stand for no time, and is null with no value', () => {
    // Without `to`, the last reading stands for no time; a single reading then has no time at all.
    expect(meanKineticTemperature(series([[0, 7]]))).toBe(7);
    expect(meanKineticTemperature([])).toBeNull();
    expect(meanKineticTemperature(series([[0, null]]))).toBeNull();
  });

  it('sorts the readings by time', () => {
    expect(meanKineticTemperature([...uneven].reverse(), { to })).toBeCloseTo(10.97, 2);
  });
});

describe('temperatureStats', () => {
  const range = { min: 2, max: 8 };

  it('reports an empty period for no readings', () => {
    const s = temperatureStats([], range);
    expect(s).toMatchObject({ count: 0, min: null, max: null, average: null, plainAverage: null, mkt: null, coveredS: 0, inRangeShare: null, excursions: [] });
    expect(s.outOfRange).toEqual({ totalS: 0, aboveS: 0, belowS: 0, longest: null });
    // A task window with no reading in it is all no data.
    const window = temperatureStats([], range, { from: min(0), to: min(60) });
    expect(window).toMatchObject({ periodS: 3600, noDataS: 3600, coveredS: 0, inRangeShare: null });
  });

  it('counts a value equal to a limit as in range, and a hair past it as out', () => {
    const atLimits = temperatureStats(
      series([
        [0, 2],
        [10, 8],
        [20, 2],
      ]),
      range,
    );
    expect(atLimits.outOfRange.totalS).toBe(0);
    expect(atLimits.inRangeShare).toBe(1);
    const past = temperatureStats(
      series([
        [0, 8.01],
        [10, 1.99],
        [20, 5],
      ]),
      range,
    );
    expect(past.excursions.map((e) => [e.side, e.durationS])).toEqual([
      ['above', 600],
      ['below', 600],
    ]);
  });

  it('treats a missing limit as no limit', () => {
    const onlyMax = temperatureStats(
      series([
        [0, -20],
        [10, 9],
        [20, 5],
      ]),
      { max: 8, min: null },
    );
    expect(onlyMax.excursions.map((e) => e.side)).toEqual(['above']);
    expect(temperatureStats(series([[0, 100], [10, -100], [20, 0]]), {}).outOfRange.totalS).toBe(0);
  });

  it('holds a reading exactly maxGapS, and a millisecond more is no data that ends the excursion', () => {
    const exact = temperatureStats(
      [
        { t: min(0), value: 9 },
        { t: min(30), value: 5 },
      ],
      range,
    );
    expect(exact.noDataS).toBe(0);
    expect(exact.excursions).toEqual([expect.objectContaining({ durationS: 1800, endedBy: 'in_range' })]);
    const over = temperatureStats(
      [
        { t: min(0), value: 9 },
        { t: min(30) + 1, value: 5 },
      ],
      range,
    );
    expect(over.noDataS).toBe(0.001);
    expect(over.excursions).toEqual([expect.objectContaining({ durationS: 1800, endedBy: 'no_data' })]);
  });

  // Limits 2..8 C, readings every 10 minutes with a 90-minute silence, a reading with no value
  // and a jump from above to below:
  //   min   0  10  20  30    40  50  60 | 150  160  170   180  190  200 | to 210
  //   C     5   8   9  10.5   8   2 1.5 |   1  0.5  null    9   -1    5 |
  //   A above 20-40  (in at 40, 8 = max is in range)          1200 s, peak 10.5 at 30
  //   B below 60-90  (held 30 min of the 90, then no data)    1800 s, peak 1.5 at 60
  //   C below 150-170 (ended by the no-value reading)         1200 s, peak 0.5 at 160
  //   D above 180-190 (straight to the other side)            600 s, peak 9 at 180
  //   E below 190-200 (back in range at 200)                  600 s, peak -1 at 190
  //   in range 0-20, 40-60, 200-210 = 50 min = 3000 s; no data 90-150 and 170-180 = 70 min = 4200 s
  //   covered 210 - 70 = 140 min = 8400 s = 3000 in + 1800 above (A, D) + 3600 below (B, C, E)
  const crafted = series([
    [0, 5],
    [10, 8],
    [20, 9],
    [30, 10.5],
    [40, 8],
    [50, 2],
    [60, 1.5],
    [150, 1],
    [160, 0.5],
    [170, null],
    [180, 9],
    [190, -1],
    [200, 5],
  ]);
  const stats = temperatureStats(crafted, range, { to: min(210) });

  it('splits the time into in range, out of range and no data', () => {
    expect(stats).toMatchObject({ from: min(0), to: min(210), periodS: 12_600, coveredS: 8400, noDataS: 4200, inRangeS: 3000 });
    expect(stats.outOfRange).toMatchObject({ totalS: 5400, aboveS: 1800, belowS: 3600 });
    expect(stats.inRangeShare).toBeCloseTo(3000 / 8400, 12);
  });

  it('lists each excursion with its side, time, peak and how it ended', () => {
    expect(stats.excursions).toEqual([
      { side: 'above', start: min(20), end: min(40), durationS: 1200, peak: { value: 10.5, t: min(30) }, readings: 2, endedBy: 'in_range' },
      { side: 'below', start: min(60), end: min(90), durationS: 1800, peak: { value: 1.5, t: min(60) }, readings: 1, endedBy: 'no_data' },
      { side: 'below', start: min(150), end: min(170), durationS: 1200, peak: { value: 0.5, t: min(160) }, readings: 2, endedBy: 'no_data' },
      { side: 'above', start: min(180), end: min(190), durationS: 600, peak: { value: 9, t: min(180) }, readings: 1, endedBy: 'other_side' },
      { side: 'below', start: min(190), end: min(200), durationS: 600, peak: { value: -1, t: min(190) }, readings: 1, endedBy: 'in_range' },
    ]);
  });

  it('picks the single longest excursion, which is not the longest run of bad readings', () => {
    // B has one reading but 30 minutes; the 90-minute silence after it is not counted as out of range.
    expect(stats.outOfRange.longest).toEqual(stats.excursions[1]);
  });

  it('reports min, max, counts and both averages', () => {
    expect(stats).toMatchObject({ count: 12, noReadingCount: 1, min: { value: -1, t: min(190) }, max: { value: 10.5, t: min(30) }, weighting: 'time' });
    // Time-weighted over the 140 covered minutes: every reading holds 10 minutes except 1.5 C (30).
    //   (5 + 8 + 9 + 10.5 + 8 + 2 + 1 + 0.5 + 9 - 1 + 5) * 10 + 1.5 * 30 = 570 + 45 = 615; 615 / 140
    expect(stats.average).toBeCloseTo(615 / 140, 12);
    //   (57 + 1.5) / 12
    expect(stats.plainAverage).toBeCloseTo(58.5 / 12, 12);
    expect(stats.mkt!).toBeGreaterThan(stats.average!);
  });

  it('ends an excursion that lasts to the end of the period with period_end, and counts a last out-of-range reading with no time', () => {
    const tail = temperatureStats(
      series([
        [0, 5],
        [10, 9],
        [20, 11],
      ]),
      range,
    );
    // The last reading stands for no time (no `to`), but it is out of range and part of the run.
    expect(tail.excursions).toEqual([
      { side: 'above', start: min(10), end: min(20), durationS: 600, peak: { value: 11, t: min(20) }, readings: 2, endedBy: 'period_end' },
    ]);
    expect(temperatureStats(series([[0, 12]]), range).excursions).toEqual([
      { side: 'above', start: min(0), end: min(0), durationS: 0, peak: { value: 12, t: min(0) }, readings: 1, endedBy: 'period_end' },
    ]);
  });

  it('counts the time before the first reading as no data when the period starts earlier', () => {
    const s = temperatureStats(series([[10, 5], [20, 5]]), range, { from: min(0), to: min(20) });
    expect(s).toMatchObject({ periodS: 1200, noDataS: 600, coveredS: 600, inRangeShare: 1 });
  });

  it('ignores readings outside the period and values that are not temperatures', () => {
    const s = temperatureStats(
      [
        { t: min(-10), value: 30 },
        { t: min(0), value: 5 },
        { t: min(10), value: Number.NaN },
        { t: min(20), value: 5 },
        { t: min(40), value: 30 },
      ],
      range,
      { from: min(0), to: min(30) },
    );
    expect(s).toMatchObject({ count: 2, noReadingCount: 1, max: { value: 5, t: min(0) }, coveredS: 1200, noDataS: 600 });
  });

  it('matches its schema and rejects an inverted range', () => {
    expect(shipmentTempStatsSchema.parse(stats)).toEqual(stats);
    expect(shipmentTempStatsSchema.parse(temperatureStats([], range))).toBeTruthy();
    expect(() => temperatureStats(crafted, { min: 8, max: 2 })).toThrow(RangeError);
    expect(() => temperatureStats(crafted, range, { maxGapS: 0 })).toThrow(RangeError);
  });
});
