import { describe, expect, it } from 'vitest';
import { orgCreateBodySchema, roleCreateBodySchema, userCreateBodySchema } from '@iotc/shared/platform';
import { schemaIssue, schemaRule } from './schema-rule.ts';

const user = userCreateBodySchema.shape;

async function message(rule: ReturnType<typeof schemaRule>, value: unknown): Promise<string | undefined> {
  if (typeof rule === 'function' || !rule.validator) throw new Error('not a validator rule');
  try {
    await rule.validator({}, value, () => {});
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('form rules from the shared schemas', () => {
  it('account: required, then 4-32 letters, digits or _ . - @', () => {
    expect(schemaIssue(user.account, '')).toBe('ACCOUNT_REQUIRED');
    expect(schemaIssue(user.account, undefined)).toBe('ACCOUNT_REQUIRED');
    expect(schemaIssue(user.account, 'ab')).toBe('ACCOUNT_FORMAT');
    expect(schemaIssue(user.account, 'bad account')).toBe('ACCOUNT_FORMAT');
    expect(schemaIssue(user.account, 'ops.lead@acme')).toBeUndefined();
  });

  it('e-mail and mobile are optional but must be valid when given', () => {
    expect(schemaIssue(user.email, '')).toBeUndefined();
    expect(schemaIssue(user.email, 'not-an-address')).toBe('EMAIL_FORMAT');
    expect(schemaIssue(user.email, 'ops@example.com')).toBeUndefined();
    expect(schemaIssue(user.phone, '  ')).toBeUndefined();
    expect(schemaIssue(user.phone, '12345678901')).toBe('MOBILE_FORMAT');
    expect(schemaIssue(user.phone, '13800138000')).toBeUndefined();
  });

  it('initial password: blank means generated, else the spec password rule', () => {
    expect(schemaIssue(user.password, '')).toBeUndefined();
    expect(schemaIssue(user.password, 'weakweak')).toBe('PASSWORD_FORMAT');
    expect(schemaIssue(user.password, 'with space1')).toBe('PASSWORD_FORMAT');
    expect(schemaIssue(user.password, 'Strong#2026')).toBeUndefined();
  });

  it('names are required; codes are 2-32 letters, digits, _ or -', () => {
    expect(schemaIssue(user.name, '   ')).toBe('NAME_REQUIRED');
    expect(schemaIssue(orgCreateBodySchema.shape.code, 'a')).toBe('CODE_FORMAT_KEY');
    expect(schemaIssue(orgCreateBodySchema.shape.code, 'east-1')).toBeUndefined();
    expect(schemaIssue(roleCreateBodySchema.shape.code, 'ops lead')).toBe('CODE_FORMAT_KEY');
    expect(schemaIssue(roleCreateBodySchema.shape.nameEn, '')).toBe('NAME_REQUIRED');
  });

  it('a bound without its own code reads as the fallback', () => {
    expect(schemaIssue(user.name, 'x'.repeat(101))).toBe('VALIDATION');
  });

  it('the rule rejects with the text of the code in the language asked for', async () => {
    expect(await message(schemaRule(user.account, 'en'), 'ab')).toBe('The account must be 4-32 letters, digits or the symbols _ . - @');
    expect(await message(schemaRule(user.account, 'zh'), '')).toBe('账号不能为空');
    expect(await message(schemaRule(user.phone, 'zh'), '123')).toBe('请输入正确的手机号码');
    expect(await message(schemaRule(user.email, 'en'), 'ops@example.com')).toBeUndefined();
  });
});
