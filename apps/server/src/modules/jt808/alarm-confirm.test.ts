// 0x8203 manual alarm confirmation: the standard's layout, only the bits the platform must clear.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ALARM_CONFIRM_ID, CONFIRMABLE_MASK, decodeAlarmConfirmation, encodeAlarmConfirmation } from './alarm-confirm.ts';
import { decodeFrame, Deframer, encodeFrame } from './codec.ts';
import { alarmFlags } from './location.ts';
import { refusesEveryCut, thrown } from './test-helpers.ts';

describe('0x8203 manual alarm confirmation', () => {
  it('is the alarm serial (WORD) and the confirmed bits (DWORD)', () => {
    const body = encodeAlarmConfirmation({ serial: 0x1234, alarms: alarmFlags(['sos', 'illegal-displacement']) });
    expect(body.toString('hex')).toBe('123410000001');
    expect(CONFIRMABLE_MASK).toBe(alarmFlags(['sos', 'danger-warning', 'area-in-out', 'route-in-out', 'route-time-abnormal', 'illegal-ignition', 'illegal-displacement']));
    const [frame] = new Deframer().push(encodeFrame({ messageId: ALARM_CONFIRM_ID, phone: '013912345678', serial: 7 }, body));
    const decoded = decodeFrame(frame as Buffer);
    expect(decoded.header.messageId).toBe(0x8203);
    expect(decodeAlarmConfirmation(decoded.body)).toEqual({ serial: 0x1234, alarms: 0x10000001 });
    refusesEveryCut(body, decodeAlarmConfirmation);
  });

  it('refuses bits the terminal clears itself, and nothing', () => {
    expect(thrown(() => encodeAlarmConfirmation({ serial: 0, alarms: alarmFlags(['power-cut']) })).code).toBe('cannot-encode');
    expect(thrown(() => encodeAlarmConfirmation({ serial: 0, alarms: 0 })).code).toBe('cannot-encode');
  });

  it('round-trips every confirmable combination', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 1, max: 0xffffffff }), (serial, bits) => {
        const alarms = (bits & CONFIRMABLE_MASK) >>> 0;
        fc.pre(alarms !== 0);
        expect(decodeAlarmConfirmation(encodeAlarmConfirmation({ serial, alarms }))).toEqual({ serial, alarms });
      }),
    );
  });
});
