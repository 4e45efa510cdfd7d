// Property-based tests (fast-check) of the validation kit: every generated valid input passes,
// and every input that breaks one rule fails, with the spec's message code.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  chineseOnlySchema,
  isValidPassword,
  landlineSchema,
  lettersDigitsChineseSchema,
  mobileSchema,
  newPasswordSchema,
  PATTERNS,
  verificationCodeSchema,
} from './validation.ts';

const digit = fc.constantFrom(...'0123456789');
const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ');
const symbol = fc.constantFrom(...'!@#$%^&*()-_=+[]{};:,.<>/?~|');
const han = fc.integer({ min: 0x4e00, max: 0x9fa5 }).map((c) => String.fromCharCode(c));
const digits = (min: number, max: number) => fc.array(digit, { minLength: min, maxLength: max }).map((a) => a.join(''));
const word = (chars: fc.Arbitrary<string>, min: number, max: number) => fc.array(chars, { minLength: min, maxLength: max }).map((a) => a.join(''));
const first = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('password rule (property)', () => {
  const twoKinds = fc
    .tuple(fc.constantFrom<[fc.Arbitrary<string>, fc.Arbitrary<string>]>([letter, digit], [letter, symbol], [digit, symbol]), fc.integer({ min: 8, max: 20 }))
    .chain(([[a, b], n]) =>
      fc.tuple(a, b, fc.array(fc.oneof(a, b), { minLength: n - 2, maxLength: n - 2 })).chain(([x, y, rest]) =>
        fc.shuffledSubarray([x, y, ...rest], { minLength: n, maxLength: n }).map((s) => s.join('')),
      ),
    );

  it('accepts 8-20 characters of at least two kinds', () => {
    fc.assert(fc.property(twoKinds, (p) => isValidPassword(p)));
  });
  it('refuses one kind only', () => {
    fc.assert(fc.property(fc.oneof(word(letter, 8, 20), word(digit, 8, 20), word(symbol, 8, 20)), (p) => !isValidPassword(p)));
  });
  it('refuses a length outside 8-20', () => {
    fc.assert(fc.property(twoKinds, fc.nat(7), (p, n) => !isValidPassword(p.slice(0, n))));
    // At least 8 + 13 = 21 characters.
    fc.assert(fc.property(twoKinds, word(letter, 13, 30), (p, pad) => !isValidPassword(p + pad)));
  });
  it('refuses any whitespace or Chinese character anywhere', () => {
    fc.assert(
      fc.property(twoKinds, fc.oneof(fc.constantFrom(' ', '\t', '\n', '\u3000'), han), fc.nat(), (p, bad, at) => {
        // At most 19 characters plus the bad one, so the result is never too long for another reason.
        const base = p.slice(0, 19);
        const i = at % (base.length + 1);
        return !isValidPassword(base.slice(0, i) + bad + base.slice(i));
      }),
    );
  });
  it('new password: same as old and confirmation mismatch carry the spec codes', () => {
    fc.assert(
      fc.property(twoKinds, twoKinds, (a, b) => {
        fc.pre(a !== b);
        const same = newPasswordSchema.safeParse({ oldPassword: a, newPassword: a, confirmPassword: a });
        const mismatch = newPasswordSchema.safeParse({ oldPassword: b, newPassword: a, confirmPassword: b });
        const good = newPasswordSchema.safeParse({ oldPassword: b, newPassword: a, confirmPassword: a });
        return first(same) === 'PASSWORD_SAME_AS_OLD' && first(mismatch) === 'PASSWORD_CONFIRM_MISMATCH' && good.success;
      }),
    );
  });
});

describe('patterns (property)', () => {
  it('mainland mobile: 1, then 3-9, then nine digits; nothing else', () => {
    fc.assert(fc.property(fc.constantFrom(...'3456789'), digits(9, 9), (second, rest) => mobileSchema.safeParse(`1${second}${rest}`).success));
    const notMobile = digits(0, 15).filter((s) => !/^1[3-9]\d{9}$/.test(s));
    fc.assert(fc.property(notMobile, (s) => first(mobileSchema.safeParse(s)) === 'MOBILE_FORMAT'));
    fc.assert(fc.property(digits(10, 10), letter, fc.nat(10), (d, l, at) => !PATTERNS.mobileCN.test(d.slice(0, at) + l + d.slice(at))));
  });

  it('landline: optional 3-4 digit area code with or without a hyphen, then 7-8 digits', () => {
    const area = fc.option(fc.tuple(digits(3, 4), fc.constantFrom('', '-')).map(([a, h]) => a + h), { nil: '' });
    fc.assert(fc.property(area, digits(7, 8), (a, n) => landlineSchema.safeParse(a + n).success));
    fc.assert(fc.property(digits(1, 6), (n) => first(landlineSchema.safeParse(n)) === 'LANDLINE_FORMAT'));
    fc.assert(fc.property(digits(1, 2), digits(7, 8), (a, n) => !PATTERNS.landline.test(`${a}-${n}`)));
  });

  it('Chinese only, digits only, letters only, letters+digits+Chinese', () => {
    fc.assert(fc.property(word(han, 1, 20), (s) => chineseOnlySchema.safeParse(s).success));
    fc.assert(fc.property(word(han, 0, 10), fc.oneof(letter, digit, symbol), word(han, 0, 10), (a, x, b) => first(chineseOnlySchema.safeParse(a + x + b)) === 'CHINESE_ONLY'));
    fc.assert(fc.property(digits(1, 30), (s) => PATTERNS.digitsOnly.test(s)));
    fc.assert(fc.property(digits(0, 10), fc.oneof(letter, han, symbol), (s, x) => !PATTERNS.digitsOnly.test(s + x)));
    fc.assert(fc.property(word(letter, 1, 30), (s) => PATTERNS.lettersOnly.test(s)));
    fc.assert(fc.property(word(letter, 0, 10), fc.oneof(digit, han, symbol), (s, x) => !PATTERNS.lettersOnly.test(x + s)));
    fc.assert(fc.property(word(fc.oneof(letter, digit, han), 1, 30), (s) => lettersDigitsChineseSchema.safeParse(s).success));
    fc.assert(fc.property(word(fc.oneof(letter, digit, han), 0, 10), symbol, (s, x) => first(lettersDigitsChineseSchema.safeParse(s + x)) === 'LETTERS_DIGITS_CHINESE'));
  });

  it('verification code: exactly four digits', () => {
    fc.assert(fc.property(digits(4, 4), (c) => verificationCodeSchema.safeParse(c).success));
    fc.assert(fc.property(fc.oneof(digits(1, 3), digits(5, 10)), (c) => first(verificationCodeSchema.safeParse(c)) === 'CODE_FORMAT'));
    expect(first(verificationCodeSchema.safeParse(''))).toBe('CODE_REQUIRED');
  });
});
