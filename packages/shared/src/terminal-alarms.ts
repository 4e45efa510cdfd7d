// The alarm bits of a JT/T 808 terminal (the alarm flag word of a location report, JT/T 808-2013
// table 24, with the 2019 additions) as platform alarm types: one type per bit, in bit order, so
// that a policy can raise each at its own level and push rules can route each on its own. A
// terminal alarm is raised while its bit is set and cleared when a report has it clear.

/** Alarm types of the terminal's alarm bits; the index is the bit number. */
export const TERMINAL_ALARM_TYPES = [
  'jt808_sos', // 0 紧急报警
  'jt808_overspeed', // 1 超速报警
  'jt808_fatigue_driving', // 2 疲劳驾驶
  'jt808_danger_warning', // 3 危险预警 (2019: 危险驾驶行为报警)
  'jt808_gnss_module_fault', // 4
  'jt808_gnss_antenna_disconnected', // 5
  'jt808_gnss_antenna_short_circuit', // 6
  'jt808_power_under_voltage', // 7 终端主电源欠压
  'jt808_power_cut', // 8 终端主电源掉电
  'jt808_display_fault', // 9
  'jt808_tts_fault', // 10
  'jt808_camera_fault', // 11
  'jt808_ic_card_module_fault', // 12
  'jt808_overspeed_warning', // 13
  'jt808_fatigue_warning', // 14
  'jt808_illegal_driving', // 15 (2019)
  'jt808_tire_pressure_warning', // 16 (2019)
  'jt808_right_turn_blind_spot', // 17 (2019)
  'jt808_driving_time_exceeded', // 18
  'jt808_parking_timeout', // 19
  'jt808_area_in_out', // 20
  'jt808_route_in_out', // 21
  'jt808_route_time_abnormal', // 22
  'jt808_route_deviation', // 23
  'jt808_vss_fault', // 24
  'jt808_fuel_abnormal', // 25
  'jt808_stolen', // 26
  'jt808_illegal_ignition', // 27
  'jt808_illegal_displacement', // 28
  'jt808_collision', // 29 碰撞预警 (2011: 碰撞侧翻报警)
  'jt808_rollover', // 30 侧翻预警
  'jt808_illegal_door_open', // 31
] as const;
export type TerminalAlarmType = (typeof TERMINAL_ALARM_TYPES)[number];

/**
 * Bits the terminal keeps set until the platform confirms them (JT/T 808-2013 table 24: "收到应答后
 * 清零"): emergency, danger warning, area, route, route time, illegal ignition and displacement.
 * An operator's acknowledgement of such an alarm is what a 0x8203 "manual alarm confirmation"
 * carries down to the terminal.
 */
export const CONFIRMED_BITS: readonly number[] = [0, 3, 20, 21, 22, 27, 28];

/** The bit of a terminal alarm type, or -1 for another type. */
export function terminalAlarmBit(type: string): number {
  return (TERMINAL_ALARM_TYPES as readonly string[]).indexOf(type);
}

/** The terminal's alarm word from a reading's raw blocks (block `jt808`, field `alarm`); null when it carries none. */
export function terminalAlarmWord(raw: unknown): number | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const block = (raw as Record<string, unknown>).jt808;
  if (typeof block !== 'object' || block === null) return null;
  const word = (block as Record<string, unknown>).alarm;
  return typeof word === 'number' && Number.isInteger(word) && word >= 0 && word <= 0xffffffff ? word : null;
}
