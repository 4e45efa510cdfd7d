// JT/T 808 terminal rows (`jt808_terminals`): registration data, the hash of the authentication
// code, and where the terminal last connected. Everything a node needs to take a reconnecting
// terminal is here, not in any node's memory.
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { devices, jt808Frames, jt808Terminals } from '../../db/schema.ts';
import type { Registration } from './messages.ts';

export interface TerminalDevice {
  id: string;
  orgId: string;
  deviceId: string;
  protocol: 'json' | 'jt808';
}

export function jt808Repo(db: Db) {
  return {
    /** The device whose device id is this phone number (whatever its protocol). */
    async deviceByPhone(phone: string): Promise<TerminalDevice | null> {
      const [row] = await db
        .select({ id: devices.id, orgId: devices.orgId, deviceId: devices.deviceId, protocol: devices.protocol })
        .from(devices)
        .where(eq(devices.deviceId, phone));
      return row ?? null;
    },

    /** Stores a registration and the new code's hash, replacing the terminal's previous ones. */
    async saveRegistration(device: TerminalDevice, reg: Registration, codeHash: string, at: Date): Promise<void> {
      const values = {
        orgId: device.orgId,
        authCodeHash: codeHash,
        province: reg.province,
        city: reg.city,
        manufacturer: reg.manufacturer,
        model: reg.model,
        terminalId: reg.terminalId,
        plateColour: reg.plateColour,
        plate: reg.plate,
        edition: reg.edition,
        registeredAt: at,
      };
      await db
        .insert(jt808Terminals)
        .values({ deviceRef: device.id, ...values })
        .onConflictDoUpdate({ target: jt808Terminals.deviceRef, set: values });
    },

    /** The kept code hash of a jt808 device (null: never registered, or deregistered) and the model it registered with. */
    async credentials(deviceRef: string): Promise<{ hash: string | null; model: string | null }> {
      const [row] = await db
        .select({ hash: jt808Terminals.authCodeHash, model: jt808Terminals.model })
        .from(jt808Terminals)
        .innerJoin(devices, eq(devices.id, jt808Terminals.deviceRef))
        .where(and(eq(jt808Terminals.deviceRef, deviceRef), eq(devices.protocol, 'jt808')));
      return { hash: row?.hash ?? null, model: row?.model ?? null };
    },

    async markConnected(deviceRef: string, address: string | null, nodeId: string, at: Date): Promise<void> {
      await db.update(jt808Terminals).set({ lastConnectedAt: at, lastAddress: address, nodeId, connected: true, lastFrameAt: at }).where(eq(jt808Terminals.deviceRef, deviceRef));
    },

    /** The connection authenticated at `connectedAt` closed; a later connection (on any node) is left as it is. */
    async markDisconnected(deviceRef: string, connectedAt: Date, at: Date): Promise<void> {
      await db
        .update(jt808Terminals)
        .set({ connected: false, lastDisconnectedAt: at })
        .where(and(eq(jt808Terminals.deviceRef, deviceRef), eq(jt808Terminals.lastConnectedAt, connectedAt)));
    },

    async terminal(deviceRef: string) {
      const [row] = await db.select().from(jt808Terminals).where(eq(jt808Terminals.deviceRef, deviceRef));
      return row ?? null;
    },

    /** A page of the terminal's kept frames, newest first. */
    async frames(deviceRef: string, page: number, size: number) {
      const [rows, [total]] = await Promise.all([
        db.select().from(jt808Frames).where(eq(jt808Frames.deviceRef, deviceRef)).orderBy(desc(jt808Frames.id)).limit(size).offset((page - 1) * size),
        db.select({ n: count() }).from(jt808Frames).where(eq(jt808Frames.deviceRef, deviceRef)),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** Deregistration (0x0003): the code stops working; the registration data stays for troubleshooting. */
    async forgetCode(deviceRef: string): Promise<void> {
      await db.update(jt808Terminals).set({ authCodeHash: sql`null` }).where(eq(jt808Terminals.deviceRef, deviceRef));
    },
  };
}
export type Jt808Repo = ReturnType<typeof jt808Repo>;
