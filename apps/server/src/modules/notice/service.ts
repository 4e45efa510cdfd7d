// Platform notices (issue 26 item 5): only the platform administrator lists, publishes and
// withdraws them (everyone else: 403, whatever a role grants). Publishing and withdrawing are
// audited in the change's transaction; once committed, the audience's open tabs are told over the
// live bus ('inbox'), so their bells count the new notice (or no longer count a withdrawn one).
import type { Page } from '@iotc/shared/envelope';
import type { NoticeBody, NoticeQuery, NoticeRow } from '@iotc/shared/notice';
import { noticeBodySchema } from '@iotc/shared/notice';
import type { Db } from '../../db/client.ts';
import { limitOffset, toPage } from '../../db/list.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller, ClientMeta } from '../../lib/caller.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import type { NoticeRepo } from './repo.ts';

export function noticeService(db: Db, repo: NoticeRepo, deps: { audit: AuditWriter; notify: (userIds: string[]) => void; now?: () => number }) {
  const record = successRecorder(deps.audit);
  const now = deps.now ?? (() => Date.now());
  const onlyPlatformAdmin = (caller: Caller) => {
    if (!caller.isPlatformAdmin) throw new AppError(403, 'NO_PERMISSION');
  };
  const tell = async (orgId: string | null) => {
    const users = await repo.audience(orgId);
    if (users.length > 0) deps.notify(users);
  };
  return {
    async list(caller: Caller, q: NoticeQuery): Promise<Page<NoticeRow>> {
      onlyPlatformAdmin(caller);
      const { limit, offset } = limitOffset(q);
      const { rows, total } = await repo.page(limit, offset);
      return toPage(rows, total, q);
    },

    async publish(caller: Caller, input: NoticeBody, meta: ClientMeta): Promise<NoticeRow> {
      onlyPlatformAdmin(caller);
      const body = noticeBodySchema.parse(input);
      const row = await db.transaction(async (tx) => {
        const orgName = body.orgId ? await repo.orgName(tx, body.orgId) : null;
        if (body.orgId && orgName === undefined) throw new AppError(400, 'NOTICE_ORG_UNKNOWN');
        const made = await repo.insert(tx, { ...body, publishedAt: new Date(now()) }, orgName ?? null);
        await record(tx, caller, caller.orgId, 'notice_publish', `${made.titleEn} (${made.level}, ${orgName ? `to ${orgName}` : 'to everyone'})`, meta);
        return made;
      });
      await tell(row.orgId);
      return row;
    },

    async withdraw(caller: Caller, id: string, meta: ClientMeta): Promise<void> {
      onlyPlatformAdmin(caller);
      const gone = await db.transaction(async (tx) => {
        const notice = await repo.byId(tx, id);
        if (!notice || !(await repo.remove(tx, id))) throw new AppError(404, 'NOT_FOUND');
        await record(tx, caller, caller.orgId, 'notice_withdraw', `${notice.titleEn} (${notice.level})`, meta);
        return notice;
      });
      await tell(gone.orgId);
    },
  };
}
export type NoticeService = ReturnType<typeof noticeService>;
