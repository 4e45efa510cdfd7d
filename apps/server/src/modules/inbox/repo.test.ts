// The inbox's SQL: only a page of rows joins the alarms and transport tasks (for an alarm's task
// and its code); counting the unread and marking read leave that join out. Read from the SQL the
// repository sends, on a stand-in database that answers nothing.
import { describe, expect, it } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { inboxRepo, type Reader } from './repo.ts';

const dialect = new PgDialect();
const reader: Reader = { userId: '00000000-0000-4000-8000-000000000001', orgId: '00000000-0000-4000-8000-000000000002', scope: ['00000000-0000-4000-8000-000000000002'] };

function recording() {
  const sent: string[] = [];
  const db = { execute: async (q: SQL) => (sent.push(dialect.sqlToQuery(q).sql), { rows: [] }) } as unknown as Db;
  return { repo: inboxRepo(db), sent };
}
const joinsTasks = (text: string) => /transport_tasks/.test(text);

describe('inbox SQL', () => {
  it("a page's rows name the alarm's task; its count does not join the tasks", async () => {
    const { repo, sent } = recording();
    await repo.page(reader, 'en', 'all', 10, 0);
    const [rows, count] = sent;
    expect(joinsTasks(rows!)).toBe(true);
    expect(count).toMatch(/count\(\*\)/);
    expect(joinsTasks(count!)).toBe(false);
  });

  it('the unread count and marking one or all read do not join the tasks', async () => {
    const { repo, sent } = recording();
    await repo.unread(reader);
    await repo.markRead(reader, undefined, new Date());
    await repo.markRead(reader, ['00000000-0000-4000-8000-000000000003'], new Date());
    expect(sent).toHaveLength(3);
    for (const text of sent) expect(joinsTasks(text), text).toBe(false);
  });

  it('the alarms or notices filter reads only that kind', async () => {
    const { repo, sent } = recording();
    await repo.page(reader, 'en', 'alarms', 10, 0);
    await repo.page(reader, 'en', 'notices', 10, 0);
    expect(sent[0]).toMatch(/from deliveries/);
    expect(sent[0]).not.toMatch(/from notices/);
    expect(sent[2]).toMatch(/from notices/);
    expect(sent[2]).not.toMatch(/from deliveries/);
  });
});
