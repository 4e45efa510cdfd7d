// The stable error codes of the API and their texts in both languages. The English texts
// are the spec's (section 5 and 8) word for word; the Chinese texts are what a Chinese
// console shows for the same case.
import type { I18nText, Lang } from './i18n.ts';

export const ERRORS = {
  ACCOUNT_PASSWORD_ERROR: { en: 'Account password error, please re-enter', zh: '账号密码错误，请重新输入' },
  ACCOUNT_DEACTIVATED: {
    en: 'Account number does not exist or has been deactivated, please re-enter',
    zh: '账号不存在或已停用，请重新输入',
  },
  NO_PERMISSION: { en: 'No permission', zh: '暂无权限' },
  LOGIN_FAILED: { en: 'Login failed', zh: '登录失败' },
  LOGIN_TIMEOUT: { en: 'Login timeout, please try again later', zh: '登录超时，请稍后重试' },
  TOO_MANY_ATTEMPTS: {
    en: 'Too many wrong passwords for this account, please try again in 15 minutes',
    zh: '该账号密码错误次数过多，请15分钟后再试',
  },
  TOKEN_INVALID: {
    en: 'Current login status has expired, whether to log in again?',
    zh: '当前登录状态已过期，是否重新登录？',
  },
  USER_INFO_FAILED: { en: 'User information request failed!', zh: '用户信息请求失败！' },
  ACCOUNT_REQUIRED: { en: 'Account cannot be empty', zh: '账号不能为空' },
  PASSWORD_REQUIRED: { en: 'Password cannot be empty', zh: '密码不能为空' },
  PASSWORD_FORMAT: {
    en: 'The password you entered is in the wrong format, please re-enter it',
    zh: '您输入的密码格式有误，请重新输入',
  },
  PASSWORD_SAME_AS_OLD: {
    en: 'The new password you entered cannot be the same as the original password',
    zh: '您输入的新密码不能与原密码相同',
  },
  PASSWORD_CONFIRM_MISMATCH: {
    en: 'The new password you entered is not the same as the confirmation password',
    zh: '您输入的新密码与确认密码不一致',
  },
  CAPTCHA_REQUIRED: { en: 'Please input the verification code', zh: '请输入验证码' },
  CAPTCHA_ERROR: {
    en: 'There is an error in the input of the verification code, please re-enter',
    zh: '验证码输入有误，请重新输入',
  },
  OLD_PASSWORD_ERROR: { en: 'Old password error', zh: '原密码错误' },
  CHANGE_FAILED: { en: 'Failed to change', zh: '修改失败' },
  CODE_REQUIRED: { en: 'Please input the verification code', zh: '请输入验证码' },
  CODE_FORMAT: { en: 'Please input a four-digit verification code', zh: '请输入四位数字验证码' },
  CHINESE_ONLY: { en: 'Only Chinese characters are allowed', zh: '只能输入中文' },
  DIGITS_ONLY: { en: 'Only digits are allowed', zh: '只能输入数字' },
  LETTERS_ONLY: { en: 'Only letters are allowed', zh: '只能输入字母' },
  LETTERS_DIGITS_CHINESE: { en: 'Only letters, digits and Chinese characters are allowed', zh: '只能输入字母、数字和中文' },
  MOBILE_FORMAT: { en: 'Please enter a valid mainland mobile number', zh: '请输入正确的手机号码' },
  LANDLINE_FORMAT: { en: 'Please enter a valid landline number', zh: '请输入正确的固定电话号码' },
  VALIDATION: { en: 'The request is invalid', zh: '请求参数有误' },
  NOT_FOUND: { en: 'The requested resource does not exist', zh: '请求的资源不存在' },
  BODY_TOO_LARGE: { en: 'The request body is too large', zh: '请求内容过大' },
  EXPORT_TOO_LARGE: {
    en: 'Too many rows to export (at most 100,000): please narrow the filters',
    zh: '导出行数过多（最多 100,000 行），请缩小筛选范围',
  },
  INTERNAL: { en: 'Exceptional error, please contact the administrator', zh: '异常错误，请联系管理员' },
} as const satisfies Record<string, I18nText>;

export type ErrorCode = keyof typeof ERRORS;

export function errorText(code: ErrorCode, lang: Lang): string {
  return ERRORS[code][lang];
}
