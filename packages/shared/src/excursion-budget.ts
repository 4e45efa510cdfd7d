// Excursion budgets (issue 27 item 3): how much of a product's lifetime allowance of time out of
// its range a batch has used, summed across every transport task and storage period it went
// through. Pure; the server (modules/product) reads the readings of each period and the screens,
// the shipment report and the budget alarms show what this answers.
//
// The rule, as counted:
// - A period (a task from its start to its arrival or completion; a storage stay from the approved
//   'in' record to the matching 'out' record, or now) has one or more devices, each a series of
//   readings. Only readings inside [from, to] count.
// - A reading stands for the time from itself until the next reading of the same device, but
//   never for more than `maxGapS` (default 30 minutes, as the shipment report counts), and never
//   past the period's end. The last reading stands until the period's end (again at most maxGapS).
//   Time before a device's first reading, and the rest of a longer gap, is "no data": not counted.
//   A reading without a temperature stands for nothing (it only ends the one before it).
// - A reading is above when its value is > high, below when < low; a value equal to a limit is in
//   range (as in the GSP record).
// - Within one period, a minute counts once however many devices saw it out of range (the union
//   of the devices' intervals). Across periods too: the budget is spent "over its life", and a
//   batch in two places at once (two tasks overlapping in time, or a task and a storage stay
//   that overlap, e.g. a record's time set before the truck arrived) lives each minute once, so
//   its time out of range is the union of every period's out-of-range intervals, not their sum.
//   Each period still shows its own minutes (which may then add up to more than the total).
// - The absolute limits are checked on every reading: crossed when a value is > absoluteMax (or
//   < absoluteMin); one reading is enough.
// - A budget is in alert when used > 0 and used >= budget × alertPercent / 100, and exhausted when
//   used > 0 and used >= budget (so a budget of 0 minutes is exhausted by any time out of range).

export const DEFAULT_BUDGET_MAX_GAP_S = 30 * 60;
const MINUTE_MS = 60_000;

export interface BudgetProfile {
  lowC: number;
  highC: number;
  aboveBudgetMin: number;
  belowBudgetMin: number;
  absoluteMaxC: number;
  absoluteMinC: number | null;
  alertPercent: number;
}

/** One reading: epoch milliseconds and degrees Celsius (null: no temperature in it). */
export interface BudgetReading {
  t: number;
  value: number | null;
}

/** One device's readings in a period (`device` is whatever the caller names devices by). */
export interface BudgetSeries {
  device: string;
  readings: readonly BudgetReading[];
}

export interface BudgetPeriodInput {
  from: number;
  to: number;
  series: readonly BudgetSeries[];
}

export interface Extreme {
  value: number;
  t: number;
  device: string;
}

export interface PeriodUse {
  aboveMin: number;
  belowMin: number;
  /** Minutes of the period some device's reading stood for (the rest is no data). */
  coveredMin: number;
  readings: number;
  max: Extreme | null;
  min: Extreme | null;
  /** The device whose readings gave the most minutes above (below); null when none. */
  aboveDevice: string | null;
  belowDevice: string | null;
  /** The out-of-range intervals [from, to) in epoch ms, for the union across periods. */
  aboveIntervals: [number, number][];
  belowIntervals: [number, number][];
}

export type BudgetState = 'ok' | 'alert' | 'exhausted';

export interface KindUse {
  budgetMin: number;
  usedMin: number;
  leftMin: number;
  /** used / budget in percent (a budget of 0 with any use: 100). */
  percent: number;
  state: BudgetState;
  /** The device that gave the most minutes of this kind over the whole life. */
  device: string | null;
}

export interface LimitUse {
  limit: number | null;
  crossed: boolean;
  /** The extreme reading (max for the absolute max, min for the absolute min). */
  extreme: Extreme | null;
}

export interface BudgetUse {
  periods: PeriodUse[];
  above: KindUse;
  below: KindUse;
  absoluteMax: LimitUse;
  absoluteMin: LimitUse;
}

type Interval = [number, number];

/** Total length of the union of intervals. */
function unionLength(intervals: Interval[]): number {
  const sorted = intervals.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  let total = 0;
  let curA = -Infinity;
  let curB = -Infinity;
  for (const [a, b] of sorted) {
    if (a > curB) {
      if (curB > curA) total += curB - curA;
      curA = a;
      curB = b;
    } else if (b > curB) curB = b;
  }
  if (curB > curA) total += curB - curA;
  return total;
}

const isTemp = (v: number | null): v is number => typeof v === 'number' && Number.isFinite(v);

/** What one period used: minutes above and below (union over its devices), extremes, coverage. */
export function periodUse(period: BudgetPeriodInput, profile: Pick<BudgetProfile, 'lowC' | 'highC'>, maxGapS = DEFAULT_BUDGET_MAX_GAP_S): PeriodUse {
  const gapMs = maxGapS * 1000;
  const above: Interval[] = [];
  const below: Interval[] = [];
  const covered: Interval[] = [];
  const aboveBy = new Map<string, number>();
  const belowBy = new Map<string, number>();
  let max: Extreme | null = null;
  let min: Extreme | null = null;
  let count = 0;
  for (const s of period.series) {
    const rs = s.readings.filter((r) => r.t >= period.from && r.t <= period.to).sort((a, b) => a.t - b.t);
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i]!;
      if (!isTemp(r.value)) continue;
      count++;
      if (!max || r.value > max.value) max = { value: r.value, t: r.t, device: s.device };
      if (!min || r.value < min.value) min = { value: r.value, t: r.t, device: s.device };
      const next = i + 1 < rs.length ? rs[i + 1]!.t : Infinity;
      const end = Math.min(next, r.t + gapMs, period.to);
      if (end <= r.t) continue;
      const iv: Interval = [r.t, end];
      covered.push(iv);
      if (r.value > profile.highC) {
        above.push(iv);
        aboveBy.set(s.device, (aboveBy.get(s.device) ?? 0) + end - r.t);
      } else if (r.value < profile.lowC) {
        below.push(iv);
        belowBy.set(s.device, (belowBy.get(s.device) ?? 0) + end - r.t);
      }
    }
  }
  return {
    aboveMin: unionLength(above) / MINUTE_MS,
    belowMin: unionLength(below) / MINUTE_MS,
    coveredMin: unionLength(covered) / MINUTE_MS,
    readings: count,
    max,
    min,
    aboveDevice: topDevice(aboveBy),
    belowDevice: topDevice(belowBy),
    aboveIntervals: above,
    belowIntervals: below,
  };
}

function topDevice(by: Map<string, number>): string | null {
  let best: string | null = null;
  let bestMs = 0;
  for (const [d, ms] of by) if (ms > bestMs) [best, bestMs] = [d, ms];
  return best;
}

/** The state of a budget of `budgetMin` minutes after `usedMin` minutes, with the alert at `alertPercent`. */
export function budgetState(usedMin: number, budgetMin: number, alertPercent: number): BudgetState {
  if (!(usedMin > 0)) return 'ok';
  if (usedMin >= budgetMin) return 'exhausted';
  if (usedMin >= (budgetMin * alertPercent) / 100) return 'alert';
  return 'ok';
}

function kindUse(usedMin: number, budgetMin: number, alertPercent: number, device: string | null): KindUse {
  return {
    budgetMin,
    usedMin,
    leftMin: Math.max(0, budgetMin - usedMin),
    percent: budgetMin > 0 ? (usedMin / budgetMin) * 100 : usedMin > 0 ? 100 : 0,
    state: budgetState(usedMin, budgetMin, alertPercent),
    device,
  };
}

/** A batch's budget over all its periods (the rule at the top of this file). */
export function excursionBudget(profile: BudgetProfile, periods: readonly BudgetPeriodInput[], maxGapS = DEFAULT_BUDGET_MAX_GAP_S): BudgetUse {
  const uses = periods.map((p) => periodUse(p, profile, maxGapS));
  const aboveBy = new Map<string, number>();
  const belowBy = new Map<string, number>();
  let max: Extreme | null = null;
  let min: Extreme | null = null;
  for (const u of uses) {
    if (u.aboveDevice) aboveBy.set(u.aboveDevice, (aboveBy.get(u.aboveDevice) ?? 0) + u.aboveMin);
    if (u.belowDevice) belowBy.set(u.belowDevice, (belowBy.get(u.belowDevice) ?? 0) + u.belowMin);
    if (u.max && (!max || u.max.value > max.value)) max = u.max;
    if (u.min && (!min || u.min.value < min.value)) min = u.min;
  }
  // A minute out of range in two overlapping periods counts once (the rule at the top).
  const aboveMin = unionLength(uses.flatMap((u) => u.aboveIntervals)) / MINUTE_MS;
  const belowMin = unionLength(uses.flatMap((u) => u.belowIntervals)) / MINUTE_MS;
  return {
    periods: uses,
    above: kindUse(aboveMin, profile.aboveBudgetMin, profile.alertPercent, topDevice(aboveBy)),
    below: kindUse(belowMin, profile.belowBudgetMin, profile.alertPercent, topDevice(belowBy)),
    absoluteMax: { limit: profile.absoluteMaxC, crossed: !!max && max.value > profile.absoluteMaxC, extreme: max },
    absoluteMin: { limit: profile.absoluteMinC, crossed: !!min && profile.absoluteMinC !== null && min.value < profile.absoluteMinC, extreme: min },
  };
}

/**
 * The budget alarms a use calls for, as keys of product_batches.raised: `above:alert`,
 * `above:exhausted`, `below:alert`, `below:exhausted`, `absoluteMax`, `absoluteMin`. An exhausted
 * budget also calls for its alert (a batch that jumps past both in one step gets both, once each).
 */
export type BudgetAlarmKey = 'above:alert' | 'above:exhausted' | 'below:alert' | 'below:exhausted' | 'absoluteMax' | 'absoluteMin';

export function budgetAlarmKeys(use: BudgetUse): BudgetAlarmKey[] {
  const keys: BudgetAlarmKey[] = [];
  for (const kind of ['above', 'below'] as const) {
    const s = use[kind].state;
    if (s === 'alert' || s === 'exhausted') keys.push(`${kind}:alert`);
    if (s === 'exhausted') keys.push(`${kind}:exhausted`);
  }
  if (use.absoluteMax.crossed) keys.push('absoluteMax');
  if (use.absoluteMin.crossed) keys.push('absoluteMin');
  return keys;
}
