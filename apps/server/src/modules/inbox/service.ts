// The header's inbox of the signed-in user: their in-app alarm deliveries and the platform
// notices for them, newest first, read or unread for them alone. Marking read tells the user's
// other tabs, whose bells count again.
import type { Page } from '@iotc/shared/envelope';
import type { Lang } from '@iotc/shared/i18n';
import type { InboxCount, InboxItem, InboxMarked, InboxQuery } from '@iotc/shared/inbox';
import { limitOffset, toPage } from '../../db/list.ts';
import type { Caller } from '../../lib/caller.ts';
import type { InboxRepo, Reader } from './repo.ts';

const readerOf = (c: Caller): Reader => ({ userId: c.userId, orgId: c.orgId, scope: c.scope.orgs });

export function inboxService(repo: InboxRepo, opts: { notify: (userIds: string[]) => void; now?: () => number }) {
  const now = opts.now ?? (() => Date.now());
  const marked = (caller: Caller, n: number): InboxMarked => {
    if (n > 0) opts.notify([caller.userId]);
    return { marked: n };
  };
  return {
    async list(caller: Caller, lang: Lang, q: InboxQuery): Promise<Page<InboxItem>> {
      const { limit, offset } = limitOffset(q);
      const { rows, total } = await repo.page(readerOf(caller), lang, q.filter, limit, offset);
      return toPage(rows, total, q);
    },
    async unreadCount(caller: Caller): Promise<InboxCount> {
      return { unread: await repo.unread(readerOf(caller)) };
    },
    /** Ids that are not the caller's items (another user's, another organisation's, unknown) are left alone. */
    async markRead(caller: Caller, ids: readonly string[]): Promise<InboxMarked> {
      return marked(caller, await repo.markRead(readerOf(caller), [...new Set(ids)], new Date(now())));
    },
    async markAllRead(caller: Caller): Promise<InboxMarked> {
      return marked(caller, await repo.markRead(readerOf(caller), undefined, new Date(now())));
    },
  };
}
export type InboxService = ReturnType<typeof inboxService>;
