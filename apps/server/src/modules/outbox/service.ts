// The outbox for the platform administrator (issue 21, item 9): without SMTP_URL the embedded
// default keeps verification codes in the outbox table, which an embedded PGlite does not let
// anyone read while the server runs; this lists them, newest first. Messages hold codes and
// personal addresses of every organisation, so only the platform administrator may read them.
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { OutboxQuery, OutboxRow } from '@iotc/shared/outbox';
import type { Db } from '../../db/client.ts';
import { orgs, outbox } from '../../db/schema.ts';
import { containsPattern, limitOffset } from '../../db/list.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';

export function outboxService(db: Db) {
  function where(q: OutboxQuery): SQL | undefined {
    return and(
      q.channel ? eq(outbox.channel, q.channel) : undefined,
      q.status ? eq(outbox.status, q.status) : undefined,
      q.recipient ? sql`${outbox.recipient} ilike ${containsPattern(q.recipient)}` : undefined,
    );
  }

  return {
    async list(caller: Caller, q: OutboxQuery): Promise<{ rows: OutboxRow[]; total: number; page: number; size: number }> {
      if (!caller.isPlatformAdmin) throw new AppError(403, 'NO_PERMISSION');
      const w = where(q);
      const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(outbox).where(w);
      const { limit, offset } = limitOffset(q);
      const rows = await db
        .select({
          id: outbox.id,
          channel: outbox.channel,
          recipient: outbox.recipient,
          subject: outbox.subject,
          body: outbox.body,
          status: outbox.status,
          error: outbox.error,
          orgName: orgs.name,
          createdAt: outbox.createdAt,
        })
        .from(outbox)
        .leftJoin(orgs, eq(orgs.id, outbox.orgId))
        .where(w)
        .orderBy(desc(outbox.id))
        .limit(limit)
        .offset(offset);
      return {
        rows: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
        total: count?.n ?? 0,
        page: q.page,
        size: q.size,
      };
    },
  };
}
export type OutboxService = ReturnType<typeof outboxService>;
