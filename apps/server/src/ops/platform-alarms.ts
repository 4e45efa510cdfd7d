// Platform alarms: conditions of the platform itself (not of a device) that the platform
// administrator must act on, such as a database that cannot write. They are held by the server
// process, not in the database: the condition that raises one may be the database's inability
// to store anything. GET /api/iot/v2/platform/alarms lists those active now and the last ones
// that ended (platform administrator only), each in both languages as notices are; the console
// shows the active ones to platform administrators (shared/platform-alarms.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '@iotc/shared/envelope';
import { PLATFORM_ALARMS_API, platformAlarmSchema, type PlatformAlarm } from '@iotc/shared/platform-alarms';
import { callerOf } from '../plugins/auth.ts';
import { ok } from '../plugins/errors.ts';
import { AppError } from '../lib/errors.ts';

/** Ended alarms kept for the administrator to read after the fact. */
const KEEP_ENDED = 20;

export function platformAlarms() {
  const active = new Map<PlatformAlarm['code'], PlatformAlarm>();
  const ended: PlatformAlarm[] = [];
  return {
    raise(alarm: Omit<PlatformAlarm, 'status' | 'endedAt' | 'level'>) {
      active.set(alarm.code, { ...alarm, level: 'important', status: 'active', endedAt: null });
    },
    clear(code: PlatformAlarm['code'], at: Date, details: Record<string, unknown> = {}) {
      const a = active.get(code);
      if (!a) return;
      active.delete(code);
      ended.unshift({ ...a, status: 'cleared', endedAt: at.toISOString(), details: { ...a.details, ...details } });
      ended.length = Math.min(ended.length, KEEP_ENDED);
    },
    /** Active first, then the ended ones, newest first. */
    list(): PlatformAlarm[] {
      return [...active.values(), ...ended];
    },
  };
}
export type PlatformAlarms = ReturnType<typeof platformAlarms>;

export const platformAlarmRoutes: FastifyPluginAsyncZod<{ alarms: PlatformAlarms }> = async (app, { alarms }) => {
  app.get(
    PLATFORM_ALARMS_API.list,
    {
      schema: {
        tags: ['ops'],
        summary: 'Alarms of the platform itself, such as a database that cannot write: the active ones, then the last ended ones (platform administrator only)',
        response: { 200: envelopeSchema(z.array(platformAlarmSchema)) },
      },
      preHandler: app.authenticate,
    },
    async (req) => {
      if (!callerOf(req).isPlatformAdmin) throw new AppError(403, 'NO_PERMISSION');
      return ok(alarms.list());
    },
  );
};

const mb = (bytes: number | null) => (bytes === null ? null : Math.floor(bytes / 1_048_576));

/** The alarm of a database that cannot write, from the availability's figures. */
export function databaseNotWritableAlarm(stats: { unwritableSince: number | null; unwritableCause: { code: string; message: string } | null; diskFreeBytes: number | null }) {
  const cause = stats.unwritableCause;
  return {
    code: 'DATABASE_NOT_WRITABLE' as const,
    titleZh: '数据库无法写入，设备上报暂停接收',
    titleEn: 'The database cannot write: device reports are being refused',
    bodyZh: `数据库无法写入（${cause?.code ?? ''}：${cause?.message ?? ''}）。设备上报不予确认，设备会重发；HTTP 调用返回 503；JT/T 808 上报不予应答。请释放磁盘空间或恢复数据库的写入，恢复后自动继续接收。`,
    bodyEn: `The database cannot write (${cause?.code ?? ''}: ${cause?.message ?? ''}). Device reports are not acknowledged and the devices resend them; HTTP calls get 503; JT/T 808 reports are not answered. Free disk space or restore the database's writes; intake resumes by itself.`,
    startedAt: new Date(stats.unwritableSince ?? Date.now()).toISOString(),
    details: { cause, diskFreeMb: mb(stats.diskFreeBytes) },
  };
}
