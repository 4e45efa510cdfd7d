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
  ACCOUNT_FORMAT: {
    en: 'The account must be 4-32 letters, digits or the symbols _ . - @',
    zh: '账号须为 4-32 位字母、数字或 _ . - @ 符号',
  },
  ACCOUNT_TAKEN: { en: 'This account already exists, please choose another one', zh: '该账号已存在，请更换' },
  NAME_REQUIRED: { en: 'Name cannot be empty', zh: '名称不能为空' },
  ORG_NAME_REQUIRED: { en: 'Organisation name cannot be empty', zh: '组织名称不能为空' },
  EMAIL_FORMAT: { en: 'Please enter a valid e-mail address', zh: '请输入正确的邮箱地址' },
  EMAIL_UNBOUND: {
    en: 'The email address bound to the account is empty or incorrectly formatted',
    zh: '账号绑定的邮箱为空或格式有误',
  },
  SEND_MAIL_FAILED: {
    en: 'Verification code failed to send, please bind the correct mailbox!',
    zh: '验证码发送失败，请绑定正确的邮箱！',
  },
  SEND_SMS_FAILED: {
    en: 'Verification code failed to send, please bind the correct cell phone number!',
    zh: '验证码发送失败，请绑定正确的手机号码！',
  },
  CODE_ERROR: {
    en: 'There is an error in the input of the verification code, please re-enter',
    zh: '验证码输入有误，请重新输入',
  },
  CODE_EXPIRED: {
    en: 'The verification code has expired or has already been used, please get a new one',
    zh: '验证码已过期或已使用，请重新获取',
  },
  CODE_TOO_MANY_ATTEMPTS: {
    en: 'Too many wrong verification codes, please get a new one',
    zh: '验证码错误次数过多，请重新获取',
  },
  CODE_SEND_LIMIT: {
    en: 'Too many verification codes have been sent, please try again in an hour',
    zh: '验证码发送次数过多，请一小时后再试',
  },
  CODE_RESEND_WAIT: {
    en: 'A code was sent less than a minute ago, please wait before asking again',
    zh: '验证码刚刚已发送，请稍后再获取',
  },
  RESET_EXPIRED: {
    en: 'The verification has expired, please verify again',
    zh: '身份验证已过期，请重新验证',
  },
  SSO_DISABLED: { en: 'External sign-in is not configured', zh: '未配置第三方登录' },
  SSO_FAILED: { en: 'External sign-in failed, please try again', zh: '第三方登录失败，请重试' },
  BIND_EXPIRED: {
    en: 'The external sign-in has expired, please sign in with the external account again',
    zh: '第三方登录已过期，请重新使用第三方账号登录',
  },
  ALREADY_BOUND: {
    en: 'This account is already bound to another external identity',
    zh: '该账号已绑定其他第三方账号',
  },
  ORG_NOT_EMPTY: {
    en: 'The organisation still has users, sub-organisations, devices or assets and cannot be deleted',
    zh: '该组织下仍有用户、下级组织、设备或资产，无法删除',
  },
  ROLE_IN_USE: { en: 'The role is still assigned to users and cannot be deleted', zh: '该角色仍分配给用户，无法删除' },
  ROLE_CODE_TAKEN: { en: 'This role code already exists in the organisation', zh: '该组织下已存在此角色编码' },
  ORG_CODE_TAKEN: { en: 'This organisation code already exists', zh: '该组织编码已存在' },
  CODE_FORMAT_KEY: {
    en: 'The code must be 2-32 letters, digits, _ or -',
    zh: '编码须为 2-32 位字母、数字、_ 或 -',
  },
  NOT_YOURSELF: {
    en: 'You cannot deactivate, reset or change the roles of your own account here',
    zh: '不能在此停用、重置或修改自己账号的角色',
  },
  NOT_YOUR_ORG: {
    en: 'You cannot deactivate or delete your own organisation',
    zh: '不能停用或删除自己所在的组织',
  },
  DEVICE_ID_FORMAT: {
    en: 'The device id must be 4-40 letters, digits, _ or - (an IMEI or a serial number)',
    zh: '设备编号须为 4-40 位字母、数字、_ 或 -（IMEI 或序列号）',
  },
  DEVICE_ID_TAKEN: { en: 'A device with this id already exists', zh: '该设备编号已存在' },
  DEVICE_AUTH_FAILED: { en: 'Device authentication failed', zh: '设备认证失败' },
  TOO_MANY_REPORTS: { en: 'Too many reports in one request (at most 1,000)', zh: '单次上报数据过多（最多 1,000 条）' },
  ASSET_CODE_REQUIRED: { en: 'Code cannot be empty', zh: '编号不能为空' },
  RANGE_ORDER: { en: 'The lower limit must not be above the upper limit', zh: '下限不能高于上限' },
  ZIP_FORMAT: { en: 'The zip code must be 3-10 letters, digits, spaces or -', zh: '邮编须为 3-10 位字母、数字、空格或 -' },
  ASSET_CODE_TAKEN: { en: 'An asset of this kind with this code already exists', zh: '该类资产中已存在此编号' },
  ASSET_HAS_CHILDREN: {
    en: 'This asset still holds cold rooms or refrigerators: delete or move them first',
    zh: '该资产下仍有冷库或冷柜，请先删除或移走',
  },
  ASSET_PARENT_KIND: {
    en: 'A cold room belongs to a warehouse, a refrigerator to a warehouse or a cold room',
    zh: '冷库须属于仓库，冷柜须属于仓库或冷库',
  },
  DEVICE_NOT_BOUND: { en: 'The device is not bound to an asset', zh: '该设备未绑定资产' },
  IMPORT_FILE_INVALID: { en: 'The file is not an Excel workbook (.xlsx)', zh: '文件不是 Excel 工作簿（.xlsx）' },
  SCHEDULE_DAYS_REQUIRED: { en: 'Pick at least one day of the week', zh: '请至少选择一天' },
  TIME_OF_DAY_FORMAT: { en: 'Times of day are HH:mm, from 00:00 to 23:59', zh: '时间格式为 HH:mm（00:00-23:59）' },
  TIMEZONE_UNKNOWN: { en: 'Unknown time zone', zh: '未知的时区' },
  ALARM_LEVEL_REQUIRED: { en: 'Please select an alarm level', zh: '请选择告警等级' },
  ALARM_LEVEL_UNKNOWN: { en: 'The alarm level does not exist in this organisation', zh: '该组织下不存在此告警等级' },
  ALARM_THRESHOLD_RANGE: { en: 'The threshold is outside the range allowed for this alarm type', zh: '阈值超出该告警类型允许的范围' },
  ROUTE_TOO_SHORT: { en: 'A planned route needs at least two points', zh: '规划路线至少需要两个点' },
  ALARM_RULES_REQUIRED: { en: 'Add at least one rule', zh: '请至少添加一条规则' },
  RULE_ID_REPEATED: { en: 'Two rules of the policy have the same id', zh: '策略中有两条规则的编号相同' },
  POLICY_TARGETS_REQUIRED: { en: 'Pick the devices, assets or asset kinds the policy applies to', zh: '请选择策略适用的设备、资产或资产类型' },
  POLICY_TARGET_UNKNOWN: { en: 'A device or asset the policy names does not exist in this organisation', zh: '策略中的设备或资产在该组织下不存在' },
  POLICY_FILE_FORMAT: { en: 'The file is not an alarm policy export of this console', zh: '该文件不是本平台导出的告警策略' },
  LEVEL_CODE_FORMAT: { en: 'The level code must be 2-32 lowercase letters, digits, _ or -', zh: '等级编码须为 2-32 位小写字母、数字、_ 或 -' },
  LEVEL_CODE_TAKEN: { en: 'This level code already exists in the organisation', zh: '该组织下已存在此等级编码' },
  LEVEL_IN_USE: { en: 'Rules of alarm policies still use this level and it cannot be deleted', zh: '仍有告警策略的规则使用该等级，无法删除' },
  COLOR_FORMAT: { en: 'The colour must look like #RRGGBB', zh: '颜色格式须为 #RRGGBB' },
  CLOSE_REASON_REQUIRED: { en: 'Please give the reason for closing', zh: '请填写关闭原因' },
  ALARM_CLOSED: { en: 'The alarm is already closed', zh: '该告警已关闭' },
  COMMENT_REQUIRED: { en: 'Please enter a comment', zh: '请输入备注内容' },
  ASSIGNEE_UNKNOWN: { en: 'The user does not exist in this organisation', zh: '该组织下不存在此用户' },
  PUSH_STEPS_REQUIRED: { en: 'Add at least one notification step', zh: '请至少添加一个通知步骤' },
  PUSH_STEPS_TOO_MANY: { en: 'A push rule has at most 5 notification steps', zh: '推送规则最多 5 个通知步骤' },
  PUSH_STEP_FIRST_DELAY: { en: 'The first step is sent at once: its delay must be 0 minutes', zh: '第一步立即发送，延迟须为 0 分钟' },
  PUSH_STEP_ORDER: { en: 'Each escalation step must come later than the step before it', zh: '每个升级步骤的延迟须大于上一步' },
  PUSH_REPEAT_LAST_ONLY: { en: 'Only the last step may repeat', zh: '只有最后一步可以重复发送' },
  PUSH_CHANNELS_REQUIRED: { en: 'Pick at least one channel for each step', zh: '每个步骤请至少选择一种通知方式' },
  PUSH_RECIPIENTS_REQUIRED: {
    en: 'A step uses a channel without recipients for it (users or roles, e-mail addresses, phone numbers or webhooks)',
    zh: '某个步骤选择的通知方式没有对应的接收人（用户或角色、邮箱、手机号或 Webhook）',
  },
  PUSH_TEMPLATE_PLACEHOLDER: {
    en: 'The template uses an unknown placeholder; allowed: {level} {type} {device} {deviceId} {asset} {value} {threshold} {unit} {startedAt} {policy} {org} {status}',
    zh: '模板中有未知的占位符；可用：{level} {type} {device} {deviceId} {asset} {value} {threshold} {unit} {startedAt} {policy} {org} {status}',
  },
  WEBHOOK_URL_FORMAT: { en: 'The webhook address must be a URL starting with http:// or https://', zh: 'Webhook 地址须为以 http:// 或 https:// 开头的网址' },
  WEBHOOK_SECRET_FORMAT: { en: 'The webhook secret must be 16-128 characters', zh: 'Webhook 密钥须为 16-128 个字符' },
  PUSH_USER_UNKNOWN: { en: 'A recipient user does not exist in this organisation', zh: '接收用户在该组织下不存在' },
  PUSH_ROLE_UNKNOWN: { en: 'A recipient role does not exist in this organisation', zh: '接收角色在该组织下不存在' },
  PUSH_POLICY_UNKNOWN: { en: 'An alarm policy the rule names does not exist in this organisation', zh: '规则中的告警策略在该组织下不存在' },
  WORK_ORDER_TITLE_REQUIRED: { en: 'Please enter the title of the work order', zh: '请输入工单标题' },
  WORK_ORDER_TITLE_TOO_LONG: { en: 'The title is at most 100 characters', zh: '标题最多 100 个字符' },
  WORK_ORDER_ALARMS_REQUIRED: { en: 'Pick at least one alarm', zh: '请至少选择一条告警' },
  WORK_ORDER_ALARMS_TOO_MANY: { en: 'A work order holds at most 100 alarms', zh: '一个工单最多包含 100 条告警' },
  WORK_ORDER_ALARM_UNKNOWN: { en: 'An alarm of the work order does not exist in this organisation', zh: '工单中的告警在该组织下不存在' },
  WORK_ORDER_ALARM_TAKEN: { en: 'An alarm already belongs to another work order', zh: '有告警已属于其他工单' },
  WORK_ORDER_ALARMS_MIXED: { en: 'The alarms belong to different organisations: open one work order per organisation', zh: '所选告警属于不同组织，请按组织分别创建工单' },
  WORK_ORDER_TRANSITION: { en: 'The work order cannot move to this status from its current one', zh: '工单无法从当前状态变更为该状态' },
  WORK_ORDER_RESOLUTION_REQUIRED: { en: 'Please describe what was done before resolving', zh: '请填写处理结果后再标记为已解决' },
  WORK_ORDER_CLOSED: { en: 'The work order is closed and can no longer be changed', zh: '工单已关闭，不能再修改' },
  REPAIR_ACTION_REQUIRED: { en: 'Please describe the repair', zh: '请填写维修内容' },
  FAULT_RESOLVED: { en: 'The fault is already resolved', zh: '该故障已解决' },
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

/** Whether a value (an `errorcode` of an answer, a Zod message) is a code of this catalogue. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERRORS, value);
}

export function errorText(code: ErrorCode, lang: Lang): string {
  return ERRORS[code][lang];
}
