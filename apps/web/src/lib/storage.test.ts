import { beforeEach, describe, expect, it } from 'vitest';
import { installStorage, type MemoryStorage } from '../test/memory-storage.ts';
import { clearAll, getAll, getItem, removeItem, setItem } from './storage.ts';

let session: MemoryStorage;
let local: MemoryStorage;
beforeEach(() => {
  ({ session, local } = installStorage());
});

describe('storage helper (spec section 4)', () => {
  it('saves type, content, flag and time; the flag picks session storage', () => {
    const before = Date.now();
    setItem('a', 'text', true);
    setItem('b', 42);
    const a = JSON.parse(session.getItem('a')!);
    expect(a).toMatchObject({ dataType: 'string', content: 'text', type: true });
    expect(a.datetime).toBeGreaterThanOrEqual(before);
    expect(local.getItem('a')).toBeNull();
    const b = JSON.parse(local.getItem('b')!);
    expect(b).toMatchObject({ dataType: 'number', content: 42 });
    expect(b.type).toBeUndefined();
  });

  it('restores each stored type', () => {
    setItem('s', 'x');
    setItem('n', 3.5);
    setItem('t', true);
    setItem('f', false);
    setItem('o', { a: [1, 2], b: { c: 'd' } });
    expect(getItem('s')).toBe('x');
    expect(getItem('n')).toBe(3.5);
    expect(getItem('t')).toBe(true);
    expect(getItem('f')).toBe(false);
    expect(getItem('o')).toEqual({ a: [1, 2], b: { c: 'd' } });
    expect(getItem('missing')).toBeUndefined();
  });

  it('reads session storage before local storage', () => {
    setItem('k', 'local');
    setItem('k', 'session', true);
    expect(getItem('k')).toBe('session');
    removeItem('k');
    expect(getItem('k')).toBeUndefined();
  });

  it('gives back text it did not write as it is', () => {
    local.setItem('raw', 'not json');
    expect(getItem('raw')).toBe('not json');
  });

  it('lists and clears all entries', () => {
    setItem('a', 1, true);
    setItem('b', 'two');
    expect(getAll().map((e) => [e.key, e.value, e.session])).toEqual([
      ['a', 1, true],
      ['b', 'two', false],
    ]);
    clearAll(true);
    expect(getAll().map((e) => e.key)).toEqual(['b']);
    clearAll();
    expect(getAll()).toEqual([]);
  });
});
