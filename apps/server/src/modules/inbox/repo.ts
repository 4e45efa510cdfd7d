// SQL of the inbox: one user's items are their in-app deliveries that were sent and the notices
// addressed to everyone, to an organisation above or at theirs (a notice for a tree reaches all
// of it) or to one below it (as the home screen lists them); a row in inbox_reads marks one read.
import { sql, type SQL } from 'drizzle-orm';
import type { InboxItem } from '@iotc/shared/inbox';
import type { Lang } from '@iotc/shared/i18n';
import { rowsOf, type Db } from '../../db/client.ts';
import { uuidList } from '../../db/list.ts';

/** Whose inbox: the user, their organisation and the organisations below it. */
export interface Reader {
  userId: string;
  orgId: string;
  scope: readonly string[];
}

/** Which items: all, only unread (the read marks are the caller's to join), alarms or notices. */
export type ItemFilter = 'all' | 'unread' | 'alarms' | 'notices';

/**
 * The reader's items (id, kind, texts in `lang`, time), read or not. Only a page of rows names
 * the task of an alarm (`withTask`): counting and marking read leave that join out.
 */
function itemsOf(r: Reader, lang: Lang, opts: { withTask: boolean; kinds?: 'alarm' | 'notice' }): SQL {
  const zh = lang === 'zh';
  const alarms = sql`
    select d.id, 'alarm' as kind, d.subject as title, d.body, null::text as level, d.alarm_id, ${opts.withTask ? sql`tt.id` : sql`null::uuid`} as task_id, ${opts.withTask ? sql`tt.code` : sql`null::text`} as task_code, d.created_at as at
      from deliveries d
      ${opts.withTask ? sql`left join alarms a on a.id = d.alarm_id left join transport_tasks tt on tt.id = a.task_id` : sql``}
     where d.user_id = ${r.userId}::uuid and d.channel = 'in_app' and d.status = 'sent'`;
  const notices = sql`
    select n.id, 'notice' as kind, ${zh ? sql`n.title_zh` : sql`n.title_en`} as title, ${zh ? sql`n.body_zh` : sql`n.body_en`} as body, n.level, null::uuid as alarm_id, null::uuid as task_id, null::text as task_code, n.published_at as at
      from notices n
     where n.org_id is null
        or n.org_id = any(${uuidList(r.scope)})
        or n.org_id in (with recursive up(id, parent_id) as (
                          select id, parent_id from orgs where id = ${r.orgId}::uuid
                          union all select o.id, o.parent_id from orgs o join up on o.id = up.parent_id)
                        select id from up)`;
  if (opts.kinds === 'alarm') return alarms;
  if (opts.kinds === 'notice') return notices;
  return sql`${alarms} union all ${notices}`;
}

const kindsOf = (filter: ItemFilter) => (filter === 'alarms' ? 'alarm' : filter === 'notices' ? 'notice' : undefined);

interface ItemRow {
  id: string;
  kind: 'alarm' | 'notice';
  title: string;
  body: string;
  level: 'info' | 'warning' | 'important' | null;
  alarm_id: string | null;
  task_id: string | null;
  task_code: string | null;
  at: Date | string;
  read: boolean;
}

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

export function inboxRepo(db: Db) {
  return {
    async page(r: Reader, lang: Lang, filter: ItemFilter, limit: number, offset: number): Promise<{ rows: InboxItem[]; total: number }> {
      const base = (withTask: boolean) => sql`
        from (${itemsOf(r, lang, { withTask, kinds: kindsOf(filter) })}) i
        left join inbox_reads x on x.user_id = ${r.userId}::uuid and x.item_id = i.id
        ${filter === 'unread' ? sql`where x.item_id is null` : sql``}`;
      const [rows, total] = await Promise.all([
        db.execute(sql`select i.*, x.item_id is not null as read ${base(true)} order by i.at desc, i.id desc limit ${limit} offset ${offset}`),
        db.execute(sql`select count(*)::int as n ${base(false)}`),
      ]);
      return {
        rows: rowsOf<ItemRow>(rows).map((i) => ({
          id: i.id,
          kind: i.kind,
          title: i.title,
          body: i.body,
          level: i.level,
          alarmId: i.alarm_id,
          taskId: i.task_id,
          taskCode: i.task_code,
          at: iso(i.at),
          read: i.read,
        })),
        total: Number(rowsOf<{ n: number }>(total)[0]?.n ?? 0),
      };
    },

    async unread(r: Reader): Promise<number> {
      const res = await db.execute(sql`
        select count(*)::int as n from (${itemsOf(r, 'en', { withTask: false })}) i
        where not exists (select 1 from inbox_reads x where x.user_id = ${r.userId}::uuid and x.item_id = i.id)`);
      return Number(rowsOf<{ n: number }>(res)[0]?.n ?? 0);
    },

    /** Marks the reader's unread items among `ids` (all of them: undefined) read; answers how many. */
    async markRead(r: Reader, ids: readonly string[] | undefined, at: Date): Promise<number> {
      const res = await db.execute(sql`
        insert into inbox_reads (user_id, item_id, read_at)
        select ${r.userId}::uuid, i.id, ${at.toISOString()}::timestamptz from (${itemsOf(r, 'en', { withTask: false })}) i
        ${ids ? sql`where i.id = any(${uuidList(ids)})` : sql``}
        on conflict do nothing
        returning item_id`);
      return rowsOf(res).length;
    },
  };
}
export type InboxRepo = ReturnType<typeof inboxRepo>;
