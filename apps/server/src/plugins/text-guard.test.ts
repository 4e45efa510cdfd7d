// The text guard: the path of the first text PostgreSQL cannot store, nothing for clean values,
// and no stack exhausted by a deeply nested body (the fast check hands over to the iterative walk).
import { describe, expect, it } from 'vitest';
import { unstorableTextAt } from './text-guard.ts';

describe('unstorableTextAt', () => {
  it('finds nothing in clean values, buffers included', () => {
    expect(unstorableTextAt({ a: 'text 中文 😀', b: [1, true, null, { c: 'x' }], d: Buffer.from([0]) }, 'body')).toBeUndefined();
    expect(unstorableTextAt('plain', 'body')).toBeUndefined();
  });

  it('names the path of a NUL, a lone surrogate, or a key holding one', () => {
    expect(unstorableTextAt({ rules: [{ name: 'ok' }, { name: 'a\u0000b' }] }, 'body')).toBe('body.rules.1.name');
    expect(unstorableTextAt({ extraData: { note: 'x\ud800' } }, 'report')).toBe('report.extraData.note');
    expect(unstorableTextAt({ extraData: { 'k\u0000': 1 } }, 'report')).toBe('report.extraData');
  });

  it('walks a body nested far deeper than a stack allows', () => {
    let deep: unknown = 'bad\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(unstorableTextAt(deep, 'body')).toBe(`body${'.0'.repeat(100_000)}`);
    let fine: unknown = 'fine';
    for (let i = 0; i < 100_000; i++) fine = { x: fine };
    expect(unstorableTextAt(fine, 'body')).toBeUndefined();
  });
});
