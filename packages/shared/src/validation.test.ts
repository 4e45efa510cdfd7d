import { describe, expect, it } from 'vitest';
import { isValidPassword, PATTERNS } from './validation.ts';
import { langFromHeader } from './i18n.ts';

describe('password rule', () => {
  it.each([
    ['abcd1234', true],
    ['abcdefgh', false], // one kind only
    ['12345678', false],
    ['!!!!####', false],
    ['abc!defg', true], // letters + symbol
    ['1234!567', true],
    ['abc123', false], // too short
    ['a1'.repeat(10), true], // exactly 20
    ['a1'.repeat(10) + 'x', false], // 21
    ['abcd 1234', false], // space
    ['abcd1234中', false], // Chinese
  ])('%s -> %s', (pw, ok) => {
    expect(isValidPassword(pw)).toBe(ok);
  });
});

describe('patterns', () => {
  it('mainland mobile and landline', () => {
    expect(PATTERNS.mobileCN.test('13812345678')).toBe(true);
    expect(PATTERNS.mobileCN.test('12812345678')).toBe(false);
    expect(PATTERNS.landline.test('010-12345678')).toBe(true);
    expect(PATTERNS.landline.test('1234567')).toBe(true);
    expect(PATTERNS.landline.test('12-1234567')).toBe(false);
    expect(PATTERNS.verificationCode.test('0123')).toBe(true);
    expect(PATTERNS.verificationCode.test('123')).toBe(false);
  });
  it('language header', () => {
    expect(langFromHeader('zh-CN')).toBe('zh');
    expect(langFromHeader('en-US')).toBe('en');
    expect(langFromHeader(undefined)).toBe('en');
  });
});
