// Values as people read them: the unit's precision and the unit, durations with seconds.
import { describe, expect, it } from 'vitest';
import { alarmValueNumber, alarmValueText, durationText, roundedText, unitValueText } from './format.ts';

describe('value texts', () => {
  it('round an overspeed to a tenth with its unit, not 14 decimals', () => {
    expect(alarmValueText('overspeed', 111.78995078908814, 'en')).toBe('111.8 km/h');
    expect(alarmValueText('overspeed', 108.30953525102007, 'zh')).toBe('108.3 km/h');
  });

  it('give temperatures a tenth, distances whole metres, vibration hundredths', () => {
    expect(alarmValueText('temp_high', 9.4999, 'en')).toBe('9.5 °C');
    expect(alarmValueText('temp_low', -18.04, 'en')).toBe('-18 °C');
    expect(alarmValueText('yaw', 1893.4, 'en')).toBe('1893 m');
    expect(alarmValueText('vibration', 2.3456, 'en')).toBe('2.35 g');
    expect(unitValueText(-0.04, '°C', 'en')).toBe('0 °C');
  });

  it('say a stay or a silence as a duration in the language', () => {
    expect(alarmValueText('stay_timeout', 192, 'en')).toBe('3 min 12 s');
    expect(alarmValueText('stay_timeout', 192, 'zh')).toBe('3分12秒');
    expect(alarmValueText('offline', 3930, 'en')).toBe('1 h 05 min 30 s');
    expect(durationText(42, 'zh')).toBe('42秒');
  });

  it('show a dash for no value, and a bare number where there is no unit', () => {
    expect(alarmValueText('temp_high', null, 'en')).toBe('-');
    expect(unitValueText(Number.NaN, '°C', 'en')).toBe('-');
    expect(alarmValueText('door_abnormal', 1, 'en')).toBe('1');
    expect(roundedText(1.005, 1)).toBe('1');
  });

  it('give a spreadsheet the rounded number', () => {
    expect(alarmValueNumber('overspeed', 111.78995078908814)).toBe(111.8);
    expect(alarmValueNumber('stay_timeout', 192.4)).toBe(192);
    expect(alarmValueNumber('temp_high', null)).toBeNull();
    expect(alarmValueText('no_such_type', 1.23456, 'en')).toBe('1.23');
  });
});
