import { beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { COLUMN_COOKIE_CHUNK, COLUMN_COOKIE_MAX_CHUNKS } from '@iotc/shared/constants';
import {
  applyPreference,
  chunkName,
  ColumnSettingsTooLargeError,
  documentCookieJar,
  encodePreference,
  loadPreference,
  savePreference,
  splitChunks,
  type CookieJar,
} from './column-cookie.ts';
import type { ColumnPreference, TableColumn } from './types.ts';

/** A cookie jar in a Map that also counts writes. */
class FakeJar implements CookieJar {
  readonly map = new Map<string, string>();
  writes = 0;
  get(name: string) {
    return this.map.get(name);
  }
  set(name: string, value: string) {
    this.writes += 1;
    this.map.set(name, value);
  }
  remove(name: string) {
    this.writes += 1;
    this.map.delete(name);
  }
}

// The JSON of [{"key":"<k>","hidden":false}] encoded is this much longer than the encoded key.
const OVERHEAD = encodePreference([{ key: '', hidden: false }]).length;

/** A one-column preference whose encoded form is exactly `length` characters (ASCII key). */
function prefOfLength(length: number): ColumnPreference {
  return [{ key: 'k'.repeat(length - OVERHEAD), hidden: false }];
}

function clearDocumentCookies() {
  for (const c of document.cookie.split('; ')) {
    const name = c.split('=')[0];
    if (name) document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  }
}

describe('column-setting cookies', () => {
  let jar: FakeJar;
  beforeEach(() => {
    jar = new FakeJar();
  });

  it('round trips a preference', () => {
    const pref = [
      { key: 'name', hidden: false },
      { key: 'temp', hidden: true },
    ];
    expect(savePreference(jar, 'devices', pref)).toEqual({ chunks: 1 });
    expect([...jar.map.keys()]).toEqual(['iotc-cols-devices-0']);
    expect(loadPreference(jar, 'devices')).toEqual(pref);
    expect(loadPreference(jar, 'other')).toBeUndefined();
  });

  it('cuts at exactly 4000 encoded characters', () => {
    expect(encodePreference(prefOfLength(4000))).toHaveLength(4000);
    expect(savePreference(jar, 't', prefOfLength(4000)).chunks).toBe(1);
    jar = new FakeJar();
    expect(savePreference(jar, 't', prefOfLength(4001)).chunks).toBe(2);
    expect(jar.get(chunkName('t', 0))).toHaveLength(COLUMN_COOKIE_CHUNK);
    expect(jar.get(chunkName('t', 1))).toHaveLength(1);
    expect(loadPreference(jar, 't')).toEqual(prefOfLength(4001));
    expect(splitChunks('abcdefg', 3)).toEqual(['abc', 'def', 'g']);
  });

  it('removes stale higher-numbered chunks when a setting shrinks', () => {
    savePreference(jar, 't', prefOfLength(3 * 4000 + 5));
    expect(jar.map.size).toBe(4);
    savePreference(jar, 't', prefOfLength(4001));
    expect([...jar.map.keys()].sort()).toEqual([chunkName('t', 0), chunkName('t', 1)]);
    expect(loadPreference(jar, 't')).toEqual(prefOfLength(4001));
  });

  it('accepts 10 chunks and refuses 11 without writing anything', () => {
    const ten = prefOfLength(COLUMN_COOKIE_MAX_CHUNKS * COLUMN_COOKIE_CHUNK);
    expect(savePreference(jar, 't', ten).chunks).toBe(10);
    expect(loadPreference(jar, 't')).toEqual(ten);

    const before = new Map(jar.map);
    const writes = jar.writes;
    const eleven = prefOfLength(COLUMN_COOKIE_MAX_CHUNKS * COLUMN_COOKIE_CHUNK + 1);
    expect(() => savePreference(jar, 't', eleven)).toThrow(ColumnSettingsTooLargeError);
    try {
      savePreference(jar, 't', eleven);
    } catch (e) {
      expect((e as ColumnSettingsTooLargeError).chunks).toBe(11);
    }
    expect(jar.writes).toBe(writes);
    expect(jar.map).toEqual(before);
    expect(loadPreference(jar, 't')).toEqual(ten);
  });

  it('round trips Chinese column names and chunks them by encoded length', () => {
    // Each of these characters takes 9 encoded characters (%XX three times).
    const key = '温度'.repeat(300);
    const pref = [{ key, hidden: true }];
    const encoded = encodePreference(pref);
    expect(encoded.length).toBe(encodePreference([{ key: '', hidden: true }]).length + key.length * 9);
    const { chunks } = savePreference(jar, 'cn', pref);
    expect(chunks).toBe(Math.ceil(encoded.length / COLUMN_COOKIE_CHUNK));
    expect(chunks).toBe(2);
    // A chunk may end inside a %XX escape; only the joined text is decoded.
    expect(loadPreference(jar, 'cn')).toEqual(pref);
  });

  it('round trips any preference that fits (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ key: fc.string({ unit: 'binary', maxLength: 400 }), hidden: fc.boolean() }), { maxLength: 30 }), (pref) => {
        const j = new FakeJar();
        savePreference(j, 'p', pref);
        expect(loadPreference(j, 'p')).toEqual(pref);
        for (const v of j.map.values()) expect(v.length).toBeLessThanOrEqual(COLUMN_COOKIE_CHUNK);
      }),
      { numRuns: 60 },
    );
  });

  it('ignores damaged cookies', () => {
    jar.set(chunkName('t', 0), '%E6%');
    expect(loadPreference(jar, 't')).toBeUndefined();
    jar.set(chunkName('t', 0), encodeURIComponent('{"a":1}'));
    expect(loadPreference(jar, 't')).toBeUndefined();
  });

  it('applies saved hidden flags to the declared columns by value', () => {
    const columns: TableColumn[] = [
      { key: 'Name', value: 'name' },
      { key: 'Temp', value: 'temp', hidden: true },
      { key: 'New', value: 'added', hidden: true },
    ];
    const applied = applyPreference(columns, [
      { key: 'name', hidden: true },
      { key: 'temp', hidden: false },
      { key: 'gone', hidden: false },
    ]);
    expect(applied.map((c) => [c.value, !!c.hidden])).toEqual([
      ['name', true],
      ['temp', false],
      ['added', true],
    ]);
  });

  it('works against document.cookie: session cookies on path /, Chinese names included', () => {
    clearDocumentCookies();
    const docJar = documentCookieJar();
    const pref = [
      { key: '温度', hidden: true },
      { key: 'battery', hidden: false },
    ];
    savePreference(docJar, 'dev', pref);
    expect(document.cookie).toContain('iotc-cols-dev-0=');
    expect(loadPreference(docJar, 'dev')).toEqual(pref);

    savePreference(docJar, 'big', prefOfLength(4000 * 2 + 1));
    expect(docJar.get(chunkName('big', 2))).toHaveLength(1);
    savePreference(docJar, 'big', prefOfLength(100));
    expect(docJar.get(chunkName('big', 1))).toBeUndefined();
    expect(docJar.get(chunkName('big', 2))).toBeUndefined();
    expect(loadPreference(docJar, 'big')).toEqual(prefOfLength(100));
  });

  it('writes no expiry attribute (session cookies)', () => {
    const written: string[] = [];
    const doc = {
      get cookie() {
        return '';
      },
      set cookie(v: string) {
        written.push(v);
      },
    } as unknown as Document;
    documentCookieJar(doc).set('iotc-cols-x-0', 'v');
    expect(written).toEqual(['iotc-cols-x-0=v; path=/; SameSite=Lax']);
    expect(written[0]).not.toMatch(/expires|max-age/i);
  });
});
