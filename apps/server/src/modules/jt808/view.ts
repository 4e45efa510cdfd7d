// The device registry's view of a JT/T 808 terminal (GET /api/iot/v2/devices/:id/jt808): its
// registration, whether it is connected now and from where, and a page of its last frames. The
// row's `connected` is trusted only while last_frame_at is recent: a node that died never wrote
// the disconnect, and a live connection touches last_frame_at at least every TOUCH_EVERY_MS.
import type { Jt808Terminal, Jt808TerminalQuery } from '@iotc/shared/jt808';
import type { Db } from '../../db/client.ts';
import { visibleDevice } from '../../db/devices.ts';
import { DEFAULT_IDLE_MS } from './gateway.ts';
import { TOUCH_EVERY_MS } from './frame-log.ts';
import { jt808Repo } from './repo.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const hexId = (id: number) => `0x${id.toString(16).padStart(4, '0')}`;

export function jt808ViewService(db: Db, opts: { idleMs?: number; now?: () => Date } = {}) {
  const repo = jt808Repo(db);
  const liveFor = (opts.idleMs ?? DEFAULT_IDLE_MS) + TOUCH_EVERY_MS;
  const now = opts.now ?? (() => new Date());
  return {
    /** Another organisation's device, or a missing one, answers 404. */
    async terminal(orgId: string, id: string, q: Jt808TerminalQuery): Promise<Jt808Terminal> {
      const device = await visibleDevice(db, orgId, id);
      const [row, frames] = await Promise.all([repo.terminal(device.id), repo.frames(device.id, q.page, q.size)]);
      return {
        deviceId: device.deviceId,
        registration: row?.registeredAt
          ? {
              manufacturer: row.manufacturer,
              model: row.model,
              terminalId: row.terminalId,
              province: row.province,
              city: row.city,
              plateColour: row.plateColour,
              plate: row.plate,
              edition: row.edition,
              registeredAt: iso(row.registeredAt),
              hasCode: row.authCodeHash !== null,
            }
          : null,
        connection:
          row?.lastConnectedAt
            ? {
                connected: row.connected && row.lastFrameAt !== null && now().getTime() - row.lastFrameAt.getTime() <= liveFor,
                remoteAddress: row.lastAddress,
                node: row.nodeId,
                connectedAt: iso(row.lastConnectedAt),
                lastFrameAt: iso(row.lastFrameAt),
                disconnectedAt: iso(row.lastDisconnectedAt),
              }
            : null,
        frames: {
          rows: frames.rows.map((f) => ({ id: f.id, at: f.at.toISOString(), direction: f.direction, messageId: hexId(f.messageId), serial: f.serial, summary: f.summary, hex: f.hex })),
          total: frames.total,
          page: q.page,
          size: q.size,
        },
      };
    },
  };
}
export type Jt808ViewService = ReturnType<typeof jt808ViewService>;
