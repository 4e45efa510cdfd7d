// 0x8203 "manual alarm confirmation" (JT/T 808-2013 8.47): what the platform sends a terminal when
// an operator has confirmed one of the alarms the terminal keeps set until the platform answers
// (emergency, danger warning, area, route, route time, illegal ignition, illegal displacement).
// The 0x8001 answer to the location report only says it was stored; these bits stay set until
// this message clears them.
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { AlarmRow } from '@iotc/shared/alarm';
import { CONFIRMED_BITS, TERMINAL_ALARM_TYPES, terminalAlarmBit } from '@iotc/shared/terminal-alarms';
import type { Db } from '../../db/client.ts';
import { alarms as alarmTable } from '../../db/schema.ts';
import type { EventBus } from '../../realtime/bus.ts';
import { Reader, Writer } from './binary.ts';
import { Jt808Error } from './errors.ts';

export const ALARM_CONFIRM_ID = 0x8203;

/** The bits a 0x8203 may carry (the others are cleared by the terminal itself). */
export const CONFIRMABLE_MASK = CONFIRMED_BITS.reduce((m, b) => (m | (1 << b)) >>> 0, 0);

export interface AlarmConfirmation {
  /** Serial of the alarm message to confirm; 0 confirms every alarm of these types. */
  serial: number;
  /** The alarm bits confirmed (only CONFIRMABLE_MASK's). */
  alarms: number;
}

export function encodeAlarmConfirmation(c: AlarmConfirmation): Buffer {
  if (c.alarms === 0 || (c.alarms & ~CONFIRMABLE_MASK) !== 0) {
    throw new Jt808Error('cannot-encode', `0x8203: alarm bits 0x${(c.alarms >>> 0).toString(16)} are not all confirmable (mask 0x${CONFIRMABLE_MASK.toString(16)})`);
  }
  return new Writer().u16(c.serial & 0xffff).u32(c.alarms >>> 0).done();
}

export function decodeAlarmConfirmation(body: Buffer): AlarmConfirmation {
  const r = new Reader(body, '0x8203 body');
  const out = { serial: r.u16(), alarms: r.u32() };
  if (r.remaining > 0) throw new Jt808Error('long-body', `0x8203 body: ${r.remaining} bytes after its 6`);
  return out;
}

/** The alarm types whose bit the platform must clear. */
const CONFIRMED_TYPES: string[] = CONFIRMED_BITS.map((b) => TERMINAL_ALARM_TYPES[b]!);

/**
 * Confirmations across nodes: an operator acknowledges a terminal alarm on any node; the node
 * holding the terminal's connection sends the 0x8203 (the live event bus carries the request to
 * every node; the others hold no session and ignore it). A terminal connected nowhere then gets
 * it when it next authenticates, on whichever node: `waiting` answers the bits of its alarms
 * acknowledged and still on (the terminal has not cleared them, so it never got the message).
 */
export function alarmConfirmations(bus: EventBus, db: Db) {
  return {
    /** The confirmable bits of the device's acknowledged alarms that are still active (0: none). */
    async waiting(deviceRef: string): Promise<number> {
      const rows = await db
        .selectDistinct({ type: alarmTable.type })
        .from(alarmTable)
        .where(and(eq(alarmTable.deviceRef, deviceRef), eq(alarmTable.status, 'active'), isNotNull(alarmTable.acknowledgedAt), inArray(alarmTable.type, CONFIRMED_TYPES)));
      return rows.reduce((bits, r) => (bits | (1 << terminalAlarmBit(r.type))) >>> 0, 0);
    },
    /** An acknowledged alarm: a terminal alarm whose bit the platform must clear asks for its 0x8203. */
    acknowledged(row: Pick<AlarmRow, 'type' | 'device'>) {
      const bit = terminalAlarmBit(row.type);
      if (bit < 0 || !CONFIRMED_BITS.includes(bit)) return;
      bus.publish({ type: 'jt808-alarm-confirm', deviceId: row.device.deviceId, alarms: (1 << bit) >>> 0 });
    },
    subscribe(listener: (c: { deviceId: string; alarms: number }) => void): () => void {
      return bus.subscribe((event) => {
        if (event.type === 'jt808-alarm-confirm') listener({ deviceId: event.deviceId, alarms: event.alarms });
      });
    },
  };
}
export type AlarmConfirmations = ReturnType<typeof alarmConfirmations>;
