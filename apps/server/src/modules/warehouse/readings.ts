// The temperature at hand-over: the newest reading of a room's sensor at or before a moment,
// at most HANDOVER_READING_WINDOW_MS older. The sensor is a device bound to the room and not
// taken off it before that moment. When the binding began is not asked: a logger is often
// registered after it was already hanging in the room (the demo, a sheet import), and its
// readings from before still describe the room.
import { sql } from 'drizzle-orm';
import { HANDOVER_READING_WINDOW_MS } from '@iotc/shared/warehouse';
import { rowsOf, type Executor } from '../../db/client.ts';

export interface HandoverReading {
  temperature: number | null;
  humidity: number | null;
  time: Date;
  deviceId: string;
}

export async function readingAt(db: Executor, roomId: string, at: Date): Promise<HandoverReading | null> {
  const since = new Date(at.getTime() - HANDOVER_READING_WINDOW_MS);
  const rows = rowsOf<{ temperature: number | string | null; humidity: number | string | null; time: Date | string; device_id: string }>(
    await db.execute(sql`
      select case when jsonb_typeof(t.sensors->'temperature') = 'number' then (t.sensors->>'temperature')::float8 end as temperature,
             case when jsonb_typeof(t.sensors->'humidity') = 'number' then (t.sensors->>'humidity')::float8 end as humidity,
             t.time, b.device_id
      from device_bindings b
      join telemetry t on t.device_ref = b.device_ref
      where b.asset_ref = ${roomId}::uuid
        and (b.unbound_at is null or b.unbound_at > ${at.toISOString()}::timestamptz)
        and t.time <= ${at.toISOString()}::timestamptz
        and t.time >= ${since.toISOString()}::timestamptz
        and (jsonb_typeof(t.sensors->'temperature') = 'number' or jsonb_typeof(t.sensors->'humidity') = 'number')
      order by t.time desc
      limit 1`),
  );
  const r = rows[0];
  if (!r) return null;
  const num = (v: number | string | null) => (v === null ? null : Number(v));
  return { temperature: num(r.temperature), humidity: num(r.humidity), time: new Date(r.time), deviceId: r.device_id };
}
