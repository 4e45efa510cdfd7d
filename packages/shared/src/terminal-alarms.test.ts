// Terminal alarm types: one per alarm bit, raised while the bit is set and cleared when a report
// has it clear; a report without the terminal's alarm word (JSON) changes nothing.
import { describe, expect, it } from 'vitest';
import { ALARM_TYPE_INFO, ALARM_TYPES, ruleSchema } from './alarm.ts';
import { evaluateRule, type RuleSample } from './alarm-rules.ts';
import { CONFIRMED_BITS, TERMINAL_ALARM_TYPES, terminalAlarmBit, terminalAlarmWord } from './terminal-alarms.ts';

const LEVEL_ID = '00000000-0000-4000-8000-000000000001';
const sample = (time: number, terminalAlarm: number | null | undefined): RuleSample => ({ time, lat: null, lon: null, speed: null, sensors: {}, terminalAlarm });

describe('terminal alarm types', () => {
  it('are 32 alarm types of kind terminal, one per bit, without a threshold', () => {
    expect(TERMINAL_ALARM_TYPES).toHaveLength(32);
    for (const [bit, type] of TERMINAL_ALARM_TYPES.entries()) {
      expect(ALARM_TYPES).toContain(type);
      expect(ALARM_TYPE_INFO[type].kind).toBe('terminal');
      expect(terminalAlarmBit(type)).toBe(bit);
    }
    expect(terminalAlarmBit('temp_high')).toBe(-1);
    expect(CONFIRMED_BITS.map((b) => TERMINAL_ALARM_TYPES[b])).toEqual([
      'jt808_sos',
      'jt808_danger_warning',
      'jt808_area_in_out',
      'jt808_route_in_out',
      'jt808_route_time_abnormal',
      'jt808_illegal_ignition',
      'jt808_illegal_displacement',
    ]);
  });

  it('reads the alarm word from the raw jt808 block only', () => {
    expect(terminalAlarmWord({ jt808: { alarm: 0x80000001 } })).toBe(0x80000001);
    expect(terminalAlarmWord({ jt808: { alarm: 0 } })).toBe(0);
    expect(terminalAlarmWord({ '3': { temp: 50 } })).toBeNull();
    expect(terminalAlarmWord({ jt808: { alarm: '1' } })).toBeNull();
    expect(terminalAlarmWord({ jt808: { alarm: -1 } })).toBeNull();
    expect(terminalAlarmWord(null)).toBeNull();
  });

  it('opens while the bit is set, repeats, and clears when it clears; other bits and JSON reports change nothing', () => {
    const rule = ruleSchema.parse({ id: 'sos', type: 'jt808_sos', threshold: 0, levelId: LEVEL_ID });
    const collision = ruleSchema.parse({ id: 'c', type: 'jt808_rollover', threshold: 0, levelId: LEVEL_ID });
    let r = evaluateRule(rule, null, sample(1000, 0b10));
    expect(r).toEqual({ state: null, event: null });
    r = evaluateRule(rule, null, sample(2000, 0b11));
    expect(r.event).toMatchObject({ kind: 'open', startedAt: 2000 });
    const open = r.state;
    expect(evaluateRule(rule, open, sample(3000, undefined))).toEqual({ state: open, event: null });
    expect(evaluateRule(rule, open, sample(3000, 1)).event).toMatchObject({ kind: 'repeat' });
    expect(evaluateRule(rule, open, sample(4000, 0)).event).toMatchObject({ kind: 'clear', at: 4000 });
    expect(evaluateRule(collision, null, sample(1000, 0x40000000)).event).toMatchObject({ kind: 'open' });
    expect(evaluateRule(collision, null, sample(1000, 0x3fffffff)).event).toBeNull();
  });

  it('waits its duration like any rule', () => {
    const rule = ruleSchema.parse({ id: 'cut', type: 'jt808_power_cut', threshold: 0, durationS: 60, levelId: LEVEL_ID });
    const first = evaluateRule(rule, null, sample(0, 1 << 8));
    expect(first.state?.phase).toBe('pending');
    expect(evaluateRule(rule, first.state, sample(60_000, 1 << 8)).event).toMatchObject({ kind: 'open', startedAt: 0 });
  });
});
