// Refused requests in the project's own words (issue 21, item 6): a field's label and a sentence
// per kind of problem, wholly Chinese in Chinese and English in English, never the schema
// library's ("Invalid input: expected string", "无效输入：期望 string"); and every field any
// route takes has a label in both languages, so a new field cannot slip through untranslated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { FIELD_LABELS } from '@iotc/shared/validation-text';
import { ADMIN_PASSWORD, call, login, testApp, type TestApp } from '../test/harness.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await testApp();
  admin = await login(t.app, 'admin', ADMIN_PASSWORD);
});
afterAll(() => t?.close());

const LOGIN = '/iot-cloud-auth/auth/v1/login';
const AUDIT = '/api/iot/v2/audit-logs';
/** Words of Zod's English and Chinese messages that must never reach a user. */
const ZOD_WORDS = /Invalid|expected|received|无效输入|期望|实际接收|Too (small|big)/;

async function refusal(opts: Parameters<typeof call>[1]): Promise<{ status: number; code: string | null; msg: string }> {
  const r = await call(t.app, opts);
  return { status: r.status, code: r.body.errorcode, msg: r.body.errormsg ?? '' };
}

describe('validation refusals', () => {
  it('a login with the account as a number: wholly Chinese in zh, English in en', async () => {
    const zh = await refusal({ method: 'POST', url: LOGIN, lang: 'zh-CN', body: { account: 12345, password: 'Demo@2026' } });
    expect(zh).toEqual({ status: 400, code: 'VALIDATION', msg: '请求参数有误：账号应为文本' });
    expect(zh.msg).not.toMatch(/[A-Za-z]/);
    const en = await refusal({ method: 'POST', url: LOGIN, lang: 'en-US', body: { account: 12345, password: 'Demo@2026' } });
    expect(en).toEqual({ status: 400, code: 'VALIDATION', msg: 'The request is invalid: Account must be text' });
  });

  it('says a missing field is required, and keeps the catalogue text of a schema that names a code', async () => {
    expect((await refusal({ method: 'POST', url: LOGIN, lang: 'zh-CN', body: { password: 'x' } })).msg).toBe('请求参数有误：账号不能为空');
    expect((await refusal({ method: 'POST', url: LOGIN, lang: 'en-US', body: { account: 'demo' } })).msg).toBe('The request is invalid: Password is required');
    expect(await refusal({ method: 'POST', url: LOGIN, lang: 'zh-CN', body: { account: ' ', password: 'x' } })).toMatchObject({ code: 'ACCOUNT_REQUIRED', msg: '账号不能为空' });
  });

  it.each([
    [`account=${'x'.repeat(65)}`, '请求参数有误：账号最多 64 个字符', 'The request is invalid: Account must be at most 64 characters'],
    ['page=0', '请求参数有误：页码不能小于 1', 'The request is invalid: Page must be at least 1'],
    ['size=101', '请求参数有误：每页条数不能大于 100', 'The request is invalid: Page size must be at most 100'],
    ['page=abc', '请求参数有误：页码应为数字', 'The request is invalid: Page must be a number'],
    ['page=1.5', '请求参数有误：页码应为整数', 'The request is invalid: Page must be a whole number'],
    ['result=maybe', '请求参数有误：结果须为以下取值之一：success、failure', 'The request is invalid: Result must be one of: success, failure'],
    [
      'timeFrom=yesterday',
      '请求参数有误：开始时间应为 ISO 8601 格式的时间（如 2026-11-26T08:00:00Z）',
      'The request is invalid: Start time must be a time in ISO 8601 (e.g. 2026-11-26T08:00:00Z)',
    ],
    ['sort=time;drop,asc', '请求参数有误：排序格式有误', 'The request is invalid: Sort order is not in the right format'],
  ])('a list query with %s names the field and the problem in both languages', async (query, zh, en) => {
    const inZh = await refusal({ method: 'GET', url: `${AUDIT}?${query}`, token: admin, lang: 'zh-CN' });
    expect(inZh).toEqual({ status: 400, code: 'VALIDATION', msg: zh });
    expect(inZh.msg).not.toMatch(ZOD_WORDS);
    expect((await refusal({ method: 'GET', url: `${AUDIT}?${query}`, token: admin, lang: 'en-US' })).msg).toBe(en);
  });

  it('words a malformed id in the path, an unsortable field and malformed JSON in the request language', async () => {
    const id = await refusal({ method: 'GET', url: '/api/iot/v2/devices/not-a-uuid', token: admin, lang: 'zh-CN' });
    expect(id).toMatchObject({ status: 400, msg: '请求参数有误：编号应为本平台的编号' });
    const sort = await refusal({ method: 'GET', url: `${AUDIT}?sort=passwordHash,asc`, token: admin, lang: 'zh-CN' });
    expect(sort.msg).toMatch(/^请求参数有误：排序：不能按“passwordHash”排序；可排序字段：/);
    const json = await refusal({ method: 'POST', url: LOGIN, lang: 'zh-CN', raw: '{"account":' });
    expect(json).toEqual({ status: 400, code: 'VALIDATION', msg: '请求参数有误：请求内容不是有效的 JSON' });
    expect((await refusal({ method: 'POST', url: LOGIN, lang: 'en-US', raw: '{"account":' })).msg).toBe('The request is invalid: the body is not valid JSON');
  });

  it('an item of a list is named with its position', async () => {
    const r = await refusal({
      method: 'POST',
      url: '/api/iot/v2/work-orders',
      token: admin,
      lang: 'zh-CN',
      body: { title: 'x', alarmIds: ['00000000-0000-4000-8000-000000000001', 42] },
    });
    expect(r.status).toBe(400);
    expect(r.msg).not.toMatch(ZOD_WORDS);
    expect(r.msg).not.toMatch(/[A-Za-z]/);
  });

  it('every field of every route input has a label in both languages', () => {
    const missing = new Set<string>();
    const seen = new Set<unknown>();
    const walk = (schema: unknown, where: string) => {
      if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
      seen.add(schema);
      const def = (schema as z.ZodType)._zod?.def as unknown as Record<string, unknown> | undefined;
      if (!def) return;
      if (def.type === 'object') {
        for (const [key, inner] of Object.entries(def.shape as Record<string, unknown>)) {
          const label = FIELD_LABELS[key];
          if (!label?.zh || !label.en) missing.add(`${key} (${where})`);
          walk(inner, where);
        }
      }
      for (const k of ['innerType', 'element', 'in', 'out', 'valueType', 'catchall', 'rest']) walk(def[k], where);
      for (const k of ['options', 'items']) if (Array.isArray(def[k])) for (const o of def[k] as unknown[]) walk(o, where);
    };
    for (const r of t.app.routeTable) {
      const s = (r.schema ?? {}) as Record<string, unknown>;
      for (const part of ['body', 'querystring', 'params']) walk(s[part], `${r.method} ${r.url}`);
    }
    expect([...missing]).toEqual([]);
  });
});
