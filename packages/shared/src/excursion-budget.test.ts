// Excursion budgets: the rule of excursion-budget.ts, with examples worked by hand.
import { describe, expect, it } from 'vitest';
import { budgetAlarmKeys, budgetState, excursionBudget, periodUse, type BudgetProfile, type BudgetReading } from './excursion-budget.ts';

/** Vaccine: 2-8 °C, at most 60 min above 8 °C and 0 min below 2 °C over its life, never above 25 °C; alert at 80 %. */
const VACCINE: BudgetProfile = { lowC: 2, highC: 8, aboveBudgetMin: 60, belowBudgetMin: 0, absoluteMaxC: 25, absoluteMinC: null, alertPercent: 80 };

const T0 = Date.parse('2026-11-20T08:00:00Z');
const at = (min: number) => T0 + min * 60_000;
/** Readings from [minute, value] pairs. */
const rs = (...pairs: [number, number | null][]): BudgetReading[] => pairs.map(([m, value]) => ({ t: at(m), value }));

describe('periodUse', () => {
  it('a reading stands until the next one of the same device', () => {
    // Task 08:00-10:00 (minutes 0..120), one logger every 10 minutes:
    //   0: 5.0   10: 9.0   20: 10.5   30: 6.0   ... 110: 6.0
    // 9.0 stands for minutes 10..20 (08:10-08:20, 10 min) above 8;
    // 10.5 stands for minutes 20..30 (08:20-08:30, 10 min) above 8.
    // Above = 10 + 10 = 20 min; below = 0; the last reading (110) stands until 120.
    // Covered = 0..120 = 120 min. Max 10.5 at minute 20, min 5.0 at minute 0.
    const readings = rs([0, 5], [10, 9], [20, 10.5], ...Array.from({ length: 9 }, (_, i) => [30 + i * 10, 6] as [number, number]));
    const u = periodUse({ from: at(0), to: at(120), series: [{ device: 'L1', readings }] }, VACCINE);
    expect(u.aboveMin).toBe(20);
    expect(u.belowMin).toBe(0);
    expect(u.coveredMin).toBe(120);
    expect(u.readings).toBe(12);
    expect(u.max).toEqual({ value: 10.5, t: at(20), device: 'L1' });
    expect(u.min).toEqual({ value: 5, t: at(0), device: 'L1' });
    expect(u.aboveDevice).toBe('L1');
  });

  it('a reading stands for at most maxGapS, and never past the end of the period', () => {
    // Storage 10:30-14:00 = minutes 150..360. The room sensor reads 9.0 at minute 240 (12:00)
    // and then falls silent. With the 30-minute cap the 9.0 stands for 240..270 = 30 min, not
    // the 120 minutes to the end of the period. Before it: 150: 4.0 (stands 150..180), 180: 5.0
    // (180..210), 210: 5.0 (210..240). Above = 30 min. Covered = 150..270 = 120 min.
    const u = periodUse({ from: at(150), to: at(360), series: [{ device: 'R1', readings: rs([150, 4], [180, 5], [210, 5], [240, 9]) }] }, VACCINE);
    expect(u.aboveMin).toBe(30);
    expect(u.coveredMin).toBe(120);
    // With the period ending at minute 250, the same 9.0 stands for 240..250 = 10 min.
    expect(periodUse({ from: at(150), to: at(250), series: [{ device: 'R1', readings: rs([150, 4], [240, 9]) }] }, VACCINE).aboveMin).toBe(10);
  });

  it('a minute seen out of range by two devices of one period counts once', () => {
    // Logger A: 0: 9, 20: 5 → the 9 stands until A's next reading: A above 0..20.
    // Logger B: 10: 9.5, 30: 5 → B above 10..30.
    // Union of 0..20 and 10..30 = 0..30 = 30 min (not 20 + 20 = 40).
    const u = periodUse(
      {
        from: at(0),
        to: at(60),
        series: [
          { device: 'A', readings: rs([0, 9], [20, 5]) },
          { device: 'B', readings: rs([10, 9.5], [30, 5]) },
        ],
      },
      VACCINE,
    );
    expect(u.aboveMin).toBe(30);
  });

  it('a value equal to a limit is in range; readings outside the period and without a value do not count', () => {
    // 0: 8.0 (equal to high: in range), 10: 2.0 (equal to low: in range), 20: null (no value: stands for
    // nothing, ends the 2.0 at minute 20), 30: 1.5 (below, stands 30..40), 40: 5.
    // A reading at minute -10 of 30 °C is before the period: ignored (max stays 8.0).
    const u = periodUse({ from: at(0), to: at(50), series: [{ device: 'L', readings: rs([-10, 30], [0, 8], [10, 2], [20, null], [30, 1.5], [40, 5]) }] }, VACCINE);
    expect(u.aboveMin).toBe(0);
    expect(u.belowMin).toBe(10);
    expect(u.max?.value).toBe(8);
    // Covered: 0..20 and 30..50 = 40 min (20..30 is the null reading's: no data).
    expect(u.coveredMin).toBe(40);
    expect(u.readings).toBe(4);
  });
});

describe('excursionBudget: one batch through a task and a storage stay', () => {
  // Worked by hand.
  // Task (08:00-10:00): above 08:10-08:30 = 20 min (as in the first example above).
  // Storage (10:30-14:00): room sensor every 30 min: 10:30 4.0, 11:00 8.5, 11:30 5.0, 12:00 5.0,
  //   12:30 5.0, 13:00 5.0, 13:30 5.0 → 8.5 stands 11:00-11:30 = 30 min above.
  // Above used = 20 + 30 = 50 min of 60: left 10 min, 83.3 % ≥ 80 % → alert (not exhausted).
  // Below used = 0 of 0 → ok. Max ever 10.5 ≤ 25 → absolute max not crossed.
  const task = { from: at(0), to: at(120), series: [{ device: 'L1', readings: rs([0, 5], [10, 9], [20, 10.5], [30, 6], [60, 6], [90, 6]) }] };
  const storage = { from: at(150), to: at(360), series: [{ device: 'R1', readings: rs([150, 4], [180, 8.5], [210, 5], [240, 5], [270, 5], [300, 5], [330, 5]) }] };

  it('sums the minutes of the periods and tells used, left and state', () => {
    const u = excursionBudget(VACCINE, [task, storage]);
    expect(u.periods.map((p) => p.aboveMin)).toEqual([20, 30]);
    expect(u.above).toMatchObject({ budgetMin: 60, usedMin: 50, leftMin: 10, state: 'alert', device: 'R1' });
    expect(u.above.percent).toBeCloseTo(83.333, 2);
    expect(u.below).toEqual({ budgetMin: 0, usedMin: 0, leftMin: 0, percent: 0, state: 'ok', device: null });
    expect(u.absoluteMax).toMatchObject({ limit: 25, crossed: false, extreme: { value: 10.5, device: 'L1' } });
    expect(budgetAlarmKeys(u)).toEqual(['above:alert']);
  });

  it('a second task over the same batch exhausts the budget; a reading of 26 °C crosses the absolute max; one below 2 °C exhausts the 0-minute budget', () => {
    // Second task 15:00-16:00 (minutes 420..480): 420: 12.0 (stands 420..440 = 20 min above),
    // 440: 26.0 (440..450 = 10 min above, and > 25), 450: 1.0 (450..460 = 10 min below), 460: 5.
    // Above = 50 + 20 + 10 = 80 min ≥ 60 → exhausted, left 0, 133.3 %.
    // Below = 10 min ≥ 0-minute budget → exhausted (percent 100).
    const second = { from: at(420), to: at(480), series: [{ device: 'L2', readings: rs([420, 12], [440, 26], [450, 1], [460, 5]) }] };
    const u = excursionBudget(VACCINE, [task, storage, second]);
    expect(u.above).toMatchObject({ usedMin: 80, leftMin: 0, state: 'exhausted' });
    expect(u.above.percent).toBeCloseTo(133.333, 2);
    expect(u.below).toMatchObject({ usedMin: 10, leftMin: 0, percent: 100, state: 'exhausted', device: 'L2' });
    expect(u.absoluteMax).toMatchObject({ crossed: true, extreme: { value: 26, t: at(440), device: 'L2' } });
    expect(budgetAlarmKeys(u)).toEqual(['above:alert', 'above:exhausted', 'below:alert', 'below:exhausted', 'absoluteMax']);
  });

  it('the absolute min counts only when the profile has one', () => {
    const cold = { from: at(0), to: at(10), series: [{ device: 'L', readings: rs([0, -3]) }] };
    expect(excursionBudget(VACCINE, [cold]).absoluteMin.crossed).toBe(false);
    expect(excursionBudget({ ...VACCINE, absoluteMinC: -2 }, [cold]).absoluteMin).toMatchObject({ limit: -2, crossed: true, extreme: { value: -3 } });
  });
});

describe('excursionBudget: a batch in two places at once', () => {
  // Worked by hand. Task A 10:00-11:00 (minutes 120..180), its logger every 10 minutes:
  //   10:00 5, 10:10 5, 10:20 9, 10:30 9, 10:40 9, 10:50 5 → above 10:20-10:50 = 30 min.
  // Storage 10:40-12:00 (minutes 160..240; the 'in' record was dated before the truck arrived),
  //   the room logger every 10 minutes: 10:40 9, 10:50 9, 11:00 9, 11:10 5, ... → above 10:40-11:10 = 30 min.
  // The batch cannot be out of range twice over in the 10:40-10:50 both saw: the union
  //   10:20-11:10 = 50 min, not 30 + 30 = 60. Each period still shows its own 30.
  const taskA = { from: at(120), to: at(180), series: [{ device: 'LA', readings: rs([120, 5], [130, 5], [140, 9], [150, 9], [160, 9], [170, 5]) }] };
  const storage = { from: at(160), to: at(240), series: [{ device: 'R', readings: rs([160, 9], [170, 9], [180, 9], [190, 5], [200, 5], [210, 5], [220, 5], [230, 5]) }] };

  it('counts the overlapping minutes once: 50 min, not 60', () => {
    const u = excursionBudget(VACCINE, [taskA, storage]);
    expect(u.periods.map((p) => p.aboveMin)).toEqual([30, 30]);
    expect(u.above).toMatchObject({ usedMin: 50, leftMin: 10, state: 'alert' });
  });

  it('two tasks overlapping in time: the same, and periods apart still add up', () => {
    // Task B 10:30-11:30 (minutes 150..210) on another truck, 2 °C budget of 0: 10:30 1, 10:45 1, 11:00 5
    //   → below 10:30-11:00 = 30 min. Task C the same batch 10:40-11:00 (160..180): 10:40 0.5, 10:50 5
    //   → below 10:40-10:50 = 10 min, inside B's: union 30 min, not 40.
    const taskB = { from: at(150), to: at(210), series: [{ device: 'LB', readings: rs([150, 1], [165, 1], [180, 5], [195, 5]) }] };
    const taskC = { from: at(160), to: at(180), series: [{ device: 'LC', readings: rs([160, 0.5], [170, 5]) }] };
    expect(excursionBudget(VACCINE, [taskB, taskC]).below.usedMin).toBe(30);
    // Apart (C moved to 12:40-13:00): 30 + 10 = 40.
    const later = { from: at(280), to: at(300), series: [{ device: 'LC', readings: rs([280, 0.5], [290, 5]) }] };
    expect(excursionBudget(VACCINE, [taskB, later]).below.usedMin).toBe(40);
  });
});

describe('budgetState', () => {
  it('alert at the share, exhausted at the budget', () => {
    // 60-minute budget, alert at 80 %: 48 minutes is the alert line.
    expect(budgetState(0, 60, 80)).toBe('ok');
    expect(budgetState(47.9, 60, 80)).toBe('ok');
    expect(budgetState(48, 60, 80)).toBe('alert');
    expect(budgetState(59.9, 60, 80)).toBe('alert');
    expect(budgetState(60, 60, 80)).toBe('exhausted');
    expect(budgetState(0, 0, 80)).toBe('ok');
    expect(budgetState(0.5, 0, 80)).toBe('exhausted');
  });
});
