// What every organisation starts with, whichever way it was made (the seed, a platform
// administrator, self-registration): the four alarm levels.
import { sql } from 'drizzle-orm';
import { DEFAULT_LEVELS } from '@iotc/shared/alarm';
import { rowsOf, type Db } from './client.ts';
import { alarmLevels } from './schema.ts';

type Target = Pick<Db, 'insert' | 'execute'>;

/** Adds the default alarm levels to the given organisations (a level code they already have is kept as it is). */
export async function addOrgDefaults(db: Target, orgIds: string[]) {
  if (orgIds.length === 0) return;
  await db
    .insert(alarmLevels)
    .values(orgIds.flatMap((orgId) => DEFAULT_LEVELS.map((l) => ({ ...l, orgId }))))
    .onConflictDoNothing({ target: [alarmLevels.orgId, alarmLevels.code] });
}

/** Organisations made before alarm levels existed get theirs at start. */
export async function backfillOrgDefaults(db: Target) {
  const rows = await db.execute<{ id: string }>(sql`select o.id from orgs o where not exists (select 1 from alarm_levels l where l.org_id = o.id)`);
  await addOrgDefaults(
    db,
    rowsOf<{ id: string }>(rows).map((r) => r.id),
  );
}
