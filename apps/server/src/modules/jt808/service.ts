// The JT/T 808 terminal lifecycle: registration (0x0100) gives a registered jt808 device a new
// random authentication code, kept only as its SHA-256; authentication (0x0102) checks a code
// against the database, so any node, or this one after a restart, takes a reconnecting terminal;
// deregistration (0x0003) forgets the code.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ReportingDevice } from '../../ingest/pipeline.ts';
import { REGISTER_RESULT, type Registration } from './messages.ts';
import type { Jt808Repo } from './repo.ts';

const hashCode = (code: string) => createHash('sha256').update(code, 'utf8').digest('hex');
/** 16 random bytes as base64url: ASCII letters, digits, `-` and `_`, which GBK leaves as they are. */
export const newAuthCode = () => randomBytes(16).toString('base64url');
/** Longer than any code the platform gives out: refused unread. */
const CODE_MAX = 64;

export type RegisterOutcome = { result: 0; code: string; device: ReportingDevice } | { result: number; reason: string; device: ReportingDevice | null };

export function jt808Service(repo: Jt808Repo, opts: { nodeId: string; now?: () => Date }) {
  const now = opts.now ?? (() => new Date());
  return {
    async register(phone: string, reg: Registration): Promise<RegisterOutcome> {
      const device = await repo.deviceByPhone(phone);
      if (!device || device.protocol !== 'jt808') {
        return {
          result: REGISTER_RESULT.terminalNotInDatabase,
          reason: device ? `registration of ${phone}: the device is not a JT/T 808 device (protocol ${device.protocol})` : `registration of ${phone}: no such device`,
          device: device && { id: device.id, orgId: device.orgId, deviceId: device.deviceId },
        };
      }
      const code = newAuthCode();
      await repo.saveRegistration(device, reg, hashCode(code), now());
      return { result: REGISTER_RESULT.ok, code, device: { id: device.id, orgId: device.orgId, deviceId: device.deviceId } };
    },

    /** The device if `code` is its current code, with the model it registered with; null otherwise (with the known device, for the log). */
    async authenticate(
      phone: string,
      code: string,
      address: string | null,
    ): Promise<{ device: ReportingDevice | null; known: ReportingDevice | null; connectedAt?: Date; model?: string | null }> {
      const row = await repo.deviceByPhone(phone);
      const known = row && { id: row.id, orgId: row.orgId, deviceId: row.deviceId };
      if (!row || row.protocol !== 'jt808' || code.length > CODE_MAX) return { device: null, known };
      const { hash: kept, model } = await repo.credentials(row.id);
      if (!kept || !timingSafeEqual(Buffer.from(kept, 'hex'), Buffer.from(hashCode(code), 'hex'))) return { device: null, known };
      const connectedAt = now();
      await repo.markConnected(row.id, address, opts.nodeId, connectedAt);
      return { device: known, known, connectedAt, model };
    },

    /**
     * Whether the connection this node authenticated at `connectedAt` is still the terminal's
     * latest, on any node. A later one (elsewhere, or here) means this one is stale: the terminal
     * moved on while no FIN reached this node (a mobile network, a load balancer), so nothing is
     * to be written to it.
     */
    async holdsLatest(device: ReportingDevice, connectedAt: Date): Promise<boolean> {
      const row = await repo.terminal(device.id);
      return row !== null && row.nodeId === opts.nodeId && row.lastConnectedAt?.getTime() === connectedAt.getTime();
    },

    /** The connection authenticated at `connectedAt` closed. */
    async disconnected(device: ReportingDevice, connectedAt: Date): Promise<void> {
      await repo.markDisconnected(device.id, connectedAt, now());
    },

    async deregister(device: ReportingDevice): Promise<void> {
      await repo.forgetCode(device.id);
    },
  };
}
export type Jt808Service = ReturnType<typeof jt808Service>;
