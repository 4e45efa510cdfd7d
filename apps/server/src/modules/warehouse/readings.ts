// The temperature at hand-over: the newest reading of a room's sensor at or before a moment,
// at most HANDOVER_READING_WINDOW_MS older. The sensor is a device bound to the room and not
// taken off it before that moment. When the binding began is not asked: a logger is often
// registered after it was already hanging in the room (the demo, a sheet import), and its
// readings from before still describe the room.
import { sql } from 'drizzle-orm';
import { HANDOVER_READING_WINDOW_MS } from '@iotc/shared/warehouse';
import { rowsOf, type Executor } from '../../db/client.ts';
import { readPackRows, sensorsOf } from '../archive/reader.ts';

export interface HandoverReading {
  temperature: number | null;
  humidity: number | null;
  time: Date;
  deviceId: string;
}

export async function readingAt(db: Executor, roomId: string, at: Date): Promise<HandoverReading | null> {
  const since = new Date(at.getTime() - HANDOVER_READING_WINDOW_MS);
  const sensors = rowsOf<{ device_ref: string; device_id: string }>(
    await db.execute(sql`select b.device_ref, b.device_id from device_bindings b
      where b.asset_ref = ${roomId}::uuid and b.device_ref is not null and (b.unbound_at is null or b.unbound_at > ${at.toISOString()}::timestamptz)`),
  );
  const number = (v: unknown) => (typeof v === 'number' ? v : null);
  let best: HandoverReading | null = null;
  let bestUs = -Infinity;
  for (const b of sensors) {
    // The sensor's newest reading with a temperature or a humidity, packs and rows alike (modules/archive).
    const [p] = await readPackRows(db, b.device_ref, { from: since.getTime(), to: at.getTime(), toInclusive: true }, {
      desc: true,
      limit: 1,
      fields: ['temperature', 'humidity'],
      filter: (r) => {
        const s = sensorsOf(r);
        return number(s.temperature) !== null || number(s.humidity) !== null;
      },
    });
    if (!p || p.timeUs <= bestUs) continue;
    const s = sensorsOf(p);
    bestUs = p.timeUs;
    best = { temperature: number(s.temperature), humidity: number(s.humidity), time: new Date(Math.floor(p.timeUs / 1000)), deviceId: b.device_id };
  }
  return best;
}
