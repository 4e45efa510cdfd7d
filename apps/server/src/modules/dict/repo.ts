// SQL of the dictionary area, and the shaping of its rows into the spec's dictCode/children form.
import { asc, eq } from 'drizzle-orm';
import type { Dict } from '@iotc/shared/auth';
import type { Lang } from '@iotc/shared/i18n';
import type { Db } from '../../db/client.ts';
import { dictItems, dictTypes } from '../../db/schema.ts';

export function dictRepo(db: Db) {
  return {
    async all(lang: Lang): Promise<Dict[]> {
      const rows = await db
        .select({
          code: dictTypes.code,
          nameZh: dictTypes.nameZh,
          nameEn: dictTypes.nameEn,
          key: dictItems.dictKey,
          valZh: dictItems.valZh,
          valEn: dictItems.valEn,
        })
        .from(dictTypes)
        .innerJoin(dictItems, eq(dictItems.dictCode, dictTypes.code))
        .orderBy(asc(dictTypes.sort), asc(dictItems.sort));
      const zh = lang === 'zh';
      const out = new Map<string, Dict>();
      for (const r of rows) {
        let d = out.get(r.code);
        if (!d) out.set(r.code, (d = { dictCode: r.code, dictName: zh ? r.nameZh : r.nameEn, children: [] }));
        d.children.push({ dictKey: r.key, dictVal: zh ? r.valZh : r.valEn });
      }
      return [...out.values()];
    },
  };
}
export type DictRepo = ReturnType<typeof dictRepo>;
