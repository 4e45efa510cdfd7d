// The last frames of authenticated JT/T 808 terminals (jt808_frames), in and out, for the device
// registry's troubleshooting table, and the terminal's last_frame_at, which tells a live
// connection from one whose node died. Written cheaply: frames wait in memory and go to the
// database in one insert a second; a terminal gets at most a few frames a second into it and one
// flush at most MAX_PER_FLUSH, so a flood cannot fill the disk; the newest JT808_FRAMES_KEPT per
// terminal are kept. last_frame_at is written at most every TOUCH_EVERY_MS per terminal. The
// frames of a connection that has not authenticated are never offered here (the gateway's rule).
import { sql } from 'drizzle-orm';
import { JT808_FRAMES_KEPT } from '@iotc/shared/jt808';
import type { Db } from '../../db/client.ts';
import { uuidList } from '../../db/list.ts';
import { jt808Frames, jt808Terminals } from '../../db/schema.ts';
import type { ReportingDevice } from '../../ingest/pipeline.ts';
import { storableText } from '../../plugins/text-guard.ts';
import { decodeSetParameters, decodeTerminalControl, decodeTextMessage } from './commands.ts';
import { decodeGeneralAnswer, MSG, type TerminalMessage } from './messages.ts';

/** Frames per terminal and second that are kept; the rest of that second is dropped. */
const PER_SECOND = 10;
/** Frames in one flush at most (one flush a second). */
const MAX_PER_FLUSH = 1000;
/** last_frame_at is written at most this often per terminal; the connection counts as live for the idle limit past it. */
export const TOUCH_EVERY_MS = 30_000;
/** Raw bytes kept per frame. */
const MAX_BYTES = 1024;
const FLAG = Buffer.from([0x7e]);
/** Summary JSON kept per frame (a 0x0704 batch can be long). */
const MAX_SUMMARY = 4000;

/** A frame waiting to be written; `summary` is JSON text. */
type Row = Omit<typeof jt808Frames.$inferInsert, 'summary' | 'at'> & { at: number; summary: string };

/**
 * A summary as the JSON text the database takes: buffers as hex, text it cannot store (NUL, lone
 * surrogates) as U+FFFD, long ones cut. Text, not a value: the flush writes it as it is.
 */
function jsonSummary(value: unknown): string {
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === 'string') return storableText(v);
    if (v && typeof v === 'object' && (v as { type?: unknown }).type === 'Buffer' && Array.isArray((v as { data?: unknown }).data)) {
      return Buffer.from((v as { data: number[] }).data).toString('hex');
    }
    return typeof v === 'bigint' ? v.toString() : v;
  });
  if (text === undefined) return '{}';
  return text.length <= MAX_SUMMARY ? text : JSON.stringify({ truncated: true, text: storableText(text.slice(0, MAX_SUMMARY)) });
}

/** A decoded terminal message without its header; the authentication code never kept. */
export function inSummary(msg: TerminalMessage): unknown {
  const { header: _header, ...rest } = msg;
  if (rest.kind === 'authenticate') return { kind: rest.kind, auth: { ...rest.auth, code: '***' } };
  if (rest.kind === 'unknown') return { kind: rest.kind, bodyLength: rest.body.length };
  return rest;
}

/** A platform message as far as it is worth reading here (answers and the commands down). */
export function outSummary(messageId: number, body: Buffer, v2019 = false): unknown {
  try {
    switch (messageId) {
      case MSG.platformAnswer: {
        const a = decodeGeneralAnswer(body);
        return { kind: 'platform-answer', answer: { ...a, messageId: `0x${a.messageId.toString(16).padStart(4, '0')}` } };
      }
      case MSG.positionQuery:
        return { kind: 'position-query' };
      case MSG.textMessage:
        return { kind: 'text-message', text: decodeTextMessage(body, v2019) };
      case MSG.terminalControl:
        return { kind: 'terminal-control', control: decodeTerminalControl(body) };
      case MSG.setParameters:
        return { kind: 'set-parameters', parameters: decodeSetParameters(body) };
    }
  } catch {
    // Shown as its length: the frame's hex is beside it.
  }
  return { bodyLength: body.length };
}

/** Frames whose bytes carry the authentication code: kept without them. */
const carriesCode = (direction: 'in' | 'out', messageId: number) => (direction === 'in' ? messageId === MSG.authenticate : messageId === MSG.registerAnswer);

export interface Jt808FrameLogOptions {
  db: Db;
  log: { warn(obj: object, msg: string): void };
  /** How often the frames waiting are written (default 1 s). */
  flushMs?: number;
}

export function jt808FrameLog(opts: Jt808FrameLogOptions) {
  const { db, log } = opts;
  const flushMs = opts.flushMs ?? 1000;
  let waiting: Row[] = [];
  const touched = new Map<string, Date>();
  const perTerminal = new Map<string, { second: number; count: number; touchedAt: number }>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();

  async function write(rows: Row[], touches: Map<string, Date>): Promise<void> {
    if (rows.length) {
      // One JSON parameter for the whole flush (a thousand rows bound as nine thousand parameters
      // cost more than the database's work on them); each summary goes in as the text it is.
      const json = `[${rows.map((r) => `{"device_ref":"${r.deviceRef}","org_id":"${r.orgId}","at":"${new Date(r.at).toISOString()}","direction":"${r.direction}","message_id":${r.messageId},"serial":${r.serial},"hex":${JSON.stringify(r.hex)},"summary":${r.summary}}`).join(',')}]`;
      await db.execute(sql`insert into ${jt808Frames} (device_ref, org_id, at, direction, message_id, serial, summary, hex)
        select device_ref, org_id, at, direction, message_id, serial, summary, hex
        from jsonb_to_recordset(${json}::jsonb) as x(device_ref uuid, org_id uuid, at timestamptz, direction text, message_id integer, serial integer, summary jsonb, hex text)`);
      // The newest JT808_FRAMES_KEPT of each terminal written to stay: per terminal, the id of its
      // first frame too many is found in the index (device_ref, id) and everything up to it goes.
      const refs = [...new Set(rows.map((r) => r.deviceRef))];
      await db.execute(sql`delete from ${jt808Frames} f using (
          select r.ref, (select id from ${jt808Frames} k where k.device_ref = r.ref order by k.id desc offset ${JT808_FRAMES_KEPT} limit 1) as cut
          from unnest(${uuidList(refs)}) as r(ref)
        ) c
        where f.device_ref = c.ref and f.id <= c.cut`);
    }
    if (touches.size) {
      // One statement for the flush's terminals (a terminal is touched every TOUCH_EVERY_MS: 10,000 connected are 333 a second).
      const refs = [...touches.keys()];
      const ats = `{${refs.map((r) => touches.get(r)!.toISOString()).join(',')}}`;
      await db.execute(sql`update ${jt808Terminals} t set last_frame_at = x.at
        from unnest(${uuidList(refs)}, ${ats}::timestamptz[]) as x(ref, at)
        where t.device_ref = x.ref and (t.last_frame_at is null or t.last_frame_at < x.at)`);
    }
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    const rows = waiting;
    const touches = new Map(touched);
    waiting = [];
    touched.clear();
    running = running.then(() =>
      rows.length || touches.size ? write(rows, touches).catch((err: unknown) => log.warn({ err, frames: rows.length }, 'JT/T 808: frames could not be kept')) : undefined,
    );
    return running;
  }

  return {
    /**
     * Offers a frame of an authenticated terminal: kept unless the terminal, or the second, has had
     * its share. The summary is made only for a frame kept (at full intake most are not).
     */
    record(device: ReportingDevice, direction: 'in' | 'out', header: { messageId: number; serial: number }, summarise: () => unknown, bytes: Buffer | null): void {
      const now = Date.now();
      const second = Math.floor(now / 1000);
      let t = perTerminal.get(device.id);
      if (!t) perTerminal.set(device.id, (t = { second, count: 0, touchedAt: 0 }));
      if (t.second !== second) {
        t.second = second;
        t.count = 0;
      }
      if (now - t.touchedAt >= TOUCH_EVERY_MS) {
        t.touchedAt = now;
        touched.set(device.id, new Date(now));
      }
      if (t.count < PER_SECOND && waiting.length < MAX_PER_FLUSH) {
        t.count++;
        const redacted = carriesCode(direction, header.messageId);
        const summary = summarise();
        // In-frames come as the deframer cut them, without their flags: kept as they arrived.
        if (bytes && direction === 'in') bytes = Buffer.concat([FLAG, bytes, FLAG]);
        const hex = !bytes || redacted ? '' : bytes.length > MAX_BYTES ? `${bytes.subarray(0, MAX_BYTES).toString('hex')}…` : bytes.toString('hex');
        waiting.push({
          deviceRef: device.id,
          orgId: device.orgId,
          at: now,
          direction,
          messageId: header.messageId,
          serial: header.serial,
          summary: jsonSummary(redacted && summary && typeof summary === 'object' ? { ...summary, redacted: true } : summary),
          hex,
        });
      }
      timer ??= setTimeout(() => void flush(), flushMs);
    },
    /** A terminal's connection closed: its counters go. */
    forget(deviceRef: string): void {
      perTerminal.delete(deviceRef);
    },
    /** Writes what is waiting now (tests, and the drain). */
    flush,
    async close(): Promise<void> {
      await flush();
    },
  };
}
export type Jt808FrameLog = ReturnType<typeof jt808FrameLog>;
