// The project's own words for a request the schemas refuse: a label per field and a sentence per
// kind of schema issue, in both languages, so a refusal never shows the schema library's words
// ("Invalid input: expected string", "无效输入：期望 string"). The server's error handler and
// the imports word their refusals with these; a test checks that every field of every route's
// input has a label here.
import { errorText, isErrorCode } from './errors.ts';
import type { I18nText, Lang } from './i18n.ts';

/** Labels of the fields of request bodies, queries and paths (their last path segment). */
export const FIELD_LABELS: Record<string, I18nText> = {
  a: { en: 'Target A', zh: '对比对象 A' },
  aboveBudgetMin: { en: 'Minutes allowed above the range', zh: '允许超上限时长（分钟）' },
  absoluteMaxC: { en: 'Absolute maximum temperature', zh: '绝对最高温度' },
  absoluteMinC: { en: 'Absolute minimum temperature', zh: '绝对最低温度' },
  aFrom: { en: 'Start of period A', zh: '周期 A 开始时间' },
  alertPercent: { en: 'Alert at budget share', zh: '预警比例' },
  aTo: { en: 'End of period A', zh: '周期 A 结束时间' },
  abnormal: { en: 'Abnormal', zh: '异常' },
  account: { en: 'Account', zh: '账号' },
  acknowledged: { en: 'Acknowledged', zh: '已确认' },
  action: { en: 'Action', zh: '操作' },
  address: { en: 'Address', zh: '地址' },
  after: { en: 'After', zh: '起始位置' },
  afterMinutes: { en: 'Delay (minutes)', zh: '延迟（分钟）' },
  alarm: { en: 'Alarm settings', zh: '告警设置' },
  alarmId: { en: 'Alarm', zh: '告警' },
  alarmIds: { en: 'Alarms', zh: '告警' },
  allowedTimes: { en: 'Allowed times', zh: '允许时段' },
  approve: { en: 'Approval', zh: '审核结果' },
  area: { en: 'Area', zh: '面积' },
  assetId: { en: 'Asset', zh: '资产' },
  assetIds: { en: 'Assets', zh: '资产' },
  assetKind: { en: 'Asset kind', zh: '资产类型' },
  assigneeId: { en: 'Assignee', zh: '处理人' },
  at: { en: 'Time', zh: '时间' },
  attrs: { en: 'Attributes', zh: '属性' },
  auditStatus: { en: 'Review status', zh: '审核状态' },
  auto: { en: 'Automatic', zh: '自动' },
  b: { en: 'Target B', zh: '对比对象 B' },
  batches: { en: 'Batches', zh: '批次' },
  belowBudgetMin: { en: 'Minutes allowed below the range', zh: '允许低于下限时长（分钟）' },
  bFrom: { en: 'Start of period B', zh: '周期 B 开始时间' },
  bTo: { en: 'End of period B', zh: '周期 B 结束时间' },
  batchNo: { en: 'Batch number', zh: '批次号' },
  body: { en: 'Content', zh: '内容' },
  bodyEn: { en: 'Content (English)', zh: '内容（英文）' },
  bodyZh: { en: 'Content (Chinese)', zh: '内容（中文）' },
  bucket: { en: 'Interval', zh: '统计间隔' },
  captcha: { en: 'Captcha', zh: '图形验证码' },
  captchaId: { en: 'Captcha', zh: '图形验证码' },
  celsius: { en: 'Temperature (°C)', zh: '温度（°C）' },
  channel: { en: 'Channel', zh: '渠道' },
  channels: { en: 'Channels', zh: '通知方式' },
  city: { en: 'City', zh: '城市' },
  code: { en: 'Code', zh: '编码' },
  collection: { en: 'GeoJSON', zh: 'GeoJSON' },
  color: { en: 'Colour', zh: '颜色' },
  confirmPassword: { en: 'Confirmation password', zh: '确认密码' },
  contacts: { en: 'Contacts', zh: '联系人' },
  containerType: { en: 'Container type', zh: '集装箱类型' },
  coordinates: { en: 'Coordinates', zh: '坐标' },
  custom: { en: 'Custom tile server', zh: '自定义瓦片服务' },
  customer: { en: 'Customer', zh: '客户' },
  dark: { en: 'Dark theme', zh: '深色主题' },
  date: { en: 'Date', zh: '日期' },
  days: { en: 'Days', zh: '日期' },
  description: { en: 'Description', zh: '描述' },
  destination: { en: 'Destination', zh: '目的地' },
  detection: { en: 'Start and end detection', zh: '起止点识别' },
  device: { en: 'Device', zh: '设备' },
  deviceId: { en: 'Device', zh: '设备' },
  deviceIds: { en: 'Devices', zh: '设备' },
  deviceRef: { en: 'Device', zh: '设备' },
  digestMinutes: { en: 'Digest interval', zh: '汇总间隔' },
  direction: { en: 'Direction', zh: '方向' },
  door: { en: 'Door', zh: '门' },
  driver: { en: 'Driver', zh: '司机' },
  driverName: { en: "Driver's name", zh: '司机姓名' },
  driverPhone: { en: "Driver's phone", zh: '司机电话' },
  dueAt: { en: 'Due time', zh: '截止时间' },
  durationS: { en: 'Duration (s)', zh: '持续时间（秒）' },
  dwellS: { en: 'Dwell time (s)', zh: '停留时间（秒）' },
  email: { en: 'E-mail address', zh: '邮箱' },
  emails: { en: 'E-mail addresses', zh: '邮箱' },
  emergency: { en: 'Emergency', zh: '紧急' },
  enabled: { en: 'Enabled', zh: '启用' },
  end: { en: 'End', zh: '结束' },
  events: { en: 'Events', zh: '事件' },
  expiresAt: { en: 'Expiry date', zh: '到期时间' },
  expiresInDays: { en: 'Expiry (days)', zh: '有效期（天）' },
  features: { en: 'Features', zh: '要素' },
  /** The inbox's all or unread. */
  filter: { en: 'Filter', zh: '筛选' },
  firmware: { en: 'Firmware', zh: '固件版本' },
  format: { en: 'Format', zh: '格式' },
  frequency: { en: 'Frequency', zh: '频率' },
  from: { en: 'From', zh: '起始值' },
  geometry: { en: 'Geometry', zh: '几何形状' },
  goodsName: { en: 'Goods', zh: '货物名称' },
  goodsQuantity: { en: 'Quantity of goods', zh: '货物数量' },
  goodsUnit: { en: 'Unit of goods', zh: '货物单位' },
  goodsValue: { en: 'Value of goods', zh: '货物价值' },
  groupBy: { en: 'Grouping', zh: '分组方式' },
  handler: { en: 'Handler', zh: '经手人' },
  height: { en: 'Height', zh: '高度' },
  highC: { en: 'Upper temperature limit', zh: '温度上限' },
  highValue: { en: 'High value', zh: '高价值' },
  hour: { en: 'Hour', zh: '小时' },
  humidity: { en: 'Humidity', zh: '湿度' },
  humidityMax: { en: 'Humidity upper limit', zh: '湿度上限' },
  humidityMin: { en: 'Humidity lower limit', zh: '湿度下限' },
  hysteresis: { en: 'Hysteresis', zh: '回差' },
  id: { en: 'Id', zh: '编号' },
  ids: { en: 'Ids', zh: '编号' },
  inTask: { en: 'On a task', zh: '任务中' },
  inWorkOrder: { en: 'In a work order', zh: '已建工单' },
  includeEmpty: { en: 'Include empty', zh: '包含空数据' },
  index: { en: 'Index', zh: '序号' },
  ip: { en: 'IP address', zh: 'IP 地址' },
  items: { en: 'Items', zh: '条目' },
  keyword: { en: 'Keyword', zh: '关键字' },
  kind: { en: 'Kind', zh: '类型' },
  lang: { en: 'Language', zh: '语言' },
  language: { en: 'Language', zh: '语言' },
  lat: { en: 'Latitude', zh: '纬度' },
  level: { en: 'Level', zh: '级别' },
  layout: { en: 'Layout', zh: '数据格式' },
  levelId: { en: 'Alarm level', zh: '告警等级' },
  levelIds: { en: 'Alarm levels', zh: '告警等级' },
  locationId: { en: 'Location', zh: '位置' },
  lon: { en: 'Longitude', zh: '经度' },
  lowC: { en: 'Lower temperature limit', zh: '温度下限' },
  match: { en: 'Match', zh: '匹配方式' },
  maxPoints: { en: 'Maximum points', zh: '最大点数' },
  menuIds: { en: 'Menus', zh: '菜单' },
  metric: { en: 'Metric', zh: '指标' },
  mine: { en: 'Mine only', zh: '仅我的' },
  model: { en: 'Model', zh: '型号' },
  moveM: { en: 'Movement distance (m)', zh: '移动距离（米）' },
  moveS: { en: 'Movement time (s)', zh: '移动时间（秒）' },
  name: { en: 'Name', zh: '名称' },
  nameEn: { en: 'English name', zh: '英文名称' },
  nameZh: { en: 'Chinese name', zh: '中文名称' },
  newPassword: { en: 'New password', zh: '新密码' },
  note: { en: 'Note', zh: '备注' },
  offset: { en: 'Byte offset', zh: '字节偏移' },
  oldPassword: { en: 'Original password', zh: '原密码' },
  openid: { en: 'External sign-in', zh: '第三方登录' },
  option: { en: 'Chart settings', zh: '图表设置' },
  orgId: { en: 'Organisation', zh: '组织' },
  orgName: { en: 'Organisation name', zh: '组织名称' },
  origin: { en: 'Origin', zh: '起点' },
  overdue: { en: 'Overdue', zh: '已逾期' },
  overspeedKmh: { en: 'Speed limit (km/h)', zh: '超速阈值（km/h）' },
  owner: { en: 'Owner', zh: '所有者' },
  page: { en: 'Page', zh: '页码' },
  params: { en: 'Parameters', zh: '参数' },
  parentId: { en: 'Parent', zh: '上级' },
  password: { en: 'Password', zh: '密码' },
  payload: { en: 'Payload', zh: '指令内容' },
  period: { en: 'Period', zh: '周期' },
  packsDays: { en: 'Packs kept (days)', zh: '归档保留天数' },
  packsFloorDays: { en: 'Floor for packs (days)', zh: '归档保留下限（天）' },
  packsInherit: { en: 'Packs: inherit', zh: '归档：继承' },
  permissions: { en: 'Permissions', zh: '权限' },
  phone: { en: 'Phone number', zh: '电话' },
  phones: { en: 'Phone numbers', zh: '手机号码' },
  place: { en: 'Place', zh: '地点' },
  placeId: { en: 'Place', zh: '地点' },
  places: { en: 'Places', zh: '地点' },
  plannedArrival: { en: 'Planned arrival', zh: '计划到达时间' },
  plannedStart: { en: 'Planned start', zh: '计划出发时间' },
  points: { en: 'Points', zh: '坐标点' },
  polygon: { en: 'Polygon corners', zh: '多边形顶点' },
  policyId: { en: 'Alarm policy', zh: '告警策略' },
  policyIds: { en: 'Alarm policies', zh: '告警策略' },
  priority: { en: 'Priority', zh: '优先级' },
  probe: { en: 'Probe', zh: '探头' },
  profileId: { en: 'Product profile', zh: '产品档案' },
  properties: { en: 'Properties', zh: '属性' },
  protocol: { en: 'Protocol', zh: '协议' },
  province: { en: 'Province', zh: '省份' },
  /** The geocoder's search text. */
  q: { en: 'Address', zh: '地址' },
  quantity: { en: 'Quantity', zh: '数量' },
  quietFrom: { en: 'Quiet hours start', zh: '免打扰开始' },
  quietTo: { en: 'Quiet hours end', zh: '免打扰结束' },
  radiusM: { en: 'Radius (m)', zh: '半径（米）' },
  reason: { en: 'Reason', zh: '原因' },
  recipient: { en: 'Recipient', zh: '收件人' },
  recipients: { en: 'Recipients', zh: '接收人' },
  remark: { en: 'Remark', zh: '备注' },
  repeatMinutes: { en: 'Repeat interval (minutes)', zh: '重复间隔（分钟）' },
  requesterId: { en: 'Requester', zh: '申请人' },
  result: { en: 'Result', zh: '结果' },
  rowsDays: { en: 'Rows kept (days)', zh: '明细保留天数' },
  rowsInherit: { en: 'Rows: inherit', zh: '明细：继承' },
  roleIds: { en: 'Roles', zh: '角色' },
  roomId: { en: 'Cold room', zh: '冷库' },
  route: { en: 'Route', zh: '路线' },
  routeSource: { en: 'Route source', zh: '路线来源' },
  ruleId: { en: 'Rule', zh: '规则' },
  rules: { en: 'Rules', zh: '规则' },
  schedule: { en: 'Schedule', zh: '计划' },
  scope: { en: 'Scope', zh: '适用范围' },
  seals: { en: 'Seals', zh: '封条' },
  seconds: { en: 'Seconds', zh: '秒数' },
  secret: { en: 'Secret', zh: '密钥' },
  serial: { en: 'Serial number', zh: '序列号' },
  series: { en: 'Chart series', zh: '图表系列' },
  shape: { en: 'Shape', zh: '形状' },
  signed: { en: 'Signed', zh: '已签名' },
  sim: { en: 'SIM card', zh: 'SIM 卡号' },
  size: { en: 'Page size', zh: '每页条数' },
  sort: { en: 'Sort order', zh: '排序' },
  sound: { en: 'Sound', zh: '声音' },
  source: { en: 'Map source', zh: '地图来源' },
  ssoProof: { en: 'External re-authentication', zh: '第三方重新验证' },
  start: { en: 'Start', zh: '开始' },
  state: { en: 'State', zh: '状态' },
  status: { en: 'Status', zh: '状态' },
  stayTimeoutS: { en: 'Stay timeout (s)', zh: '停留超时（秒）' },
  steps: { en: 'Steps', zh: '步骤' },
  stops: { en: 'Stops', zh: '途经点' },
  subject: { en: 'Subject', zh: '主题' },
  subjectId: { en: 'Subject', zh: '保全对象' },
  subjectKind: { en: 'Subject kind', zh: '保全对象类型' },
  subjectIds: { en: 'Subjects', zh: '统计对象' },
  targets: { en: 'Targets', zh: '适用对象' },
  taskId: { en: 'Task', zh: '任务' },
  tempMax: { en: 'Temperature upper limit', zh: '温度上限' },
  tempMin: { en: 'Temperature lower limit', zh: '温度下限' },
  temperature: { en: 'Temperature', zh: '温度' },
  templateId: { en: 'Template', zh: '模板' },
  templates: { en: 'Templates', zh: '模板' },
  text: { en: 'Text', zh: '文本' },
  threshold: { en: 'Threshold', zh: '阈值' },
  ticket: { en: 'Verification', zh: '身份验证' },
  tileAttribution: { en: 'Attribution', zh: '版权声明' },
  tileCrs: { en: 'Coordinate system', zh: '坐标系' },
  tileMaxZoom: { en: 'Maximum zoom', zh: '最大缩放级别' },
  tileSubdomains: { en: 'Subdomains', zh: '子域名' },
  tileUrl: { en: 'Tile address', zh: '瓦片地址' },
  time: { en: 'Time', zh: '时间' },
  timeFrom: { en: 'Start time', zh: '开始时间' },
  timeTo: { en: 'End time', zh: '结束时间' },
  timezone: { en: 'Time zone', zh: '时区' },
  title: { en: 'Title', zh: '标题' },
  titleEn: { en: 'Title (English)', zh: '标题（英文）' },
  titleZh: { en: 'Title (Chinese)', zh: '标题（中文）' },
  to: { en: 'To', zh: '结束值' },
  token: { en: 'Token', zh: '令牌' },
  tts: { en: 'Text to speech', zh: '语音播报' },
  type: { en: 'Type', zh: '类型' },
  types: { en: 'Types', zh: '类型' },
  unit: { en: 'Unit', zh: '单位' },
  url: { en: 'Address', zh: '地址' },
  userCode: { en: 'User name', zh: '用户名' },
  userId: { en: 'User', zh: '用户' },
  userIds: { en: 'Users', zh: '用户' },
  vehicleType: { en: 'Vehicle type', zh: '车辆类型' },
  what: { en: 'Removed', zh: '删除内容' },
  warehouseBatch: { en: 'Warehouse batch', zh: '仓储批次' },
  warehouseId: { en: 'Warehouse', zh: '仓库' },
  warehouseRecordId: { en: 'Warehouse record', zh: '出入库记录' },
  webhooks: { en: 'Webhooks', zh: 'Webhook' },
  width: { en: 'Width', zh: '宽度' },
  yawM: { en: 'Off-route distance (m)', zh: '偏航距离（米）' },
  zip: { en: 'Zip code', zh: '邮编' },
  document: { en: 'Document', zh: '单据' },
  meaning: { en: 'Meaning of the signature', zh: '签名含义' },
  recordId: { en: 'Record', zh: '记录' },
  recordType: { en: 'Record type', zh: '记录类型' },
};

/** Where a refused value was: the request body, its query or its path. */
export type ValidationPart = 'body' | 'querystring' | 'params' | 'headers';

const PART_LABELS: Record<ValidationPart, I18nText> = {
  body: { en: 'The request body', zh: '请求内容' },
  querystring: { en: 'The query', zh: '查询参数' },
  params: { en: 'The address', zh: '请求地址' },
  headers: { en: 'The request headers', zh: '请求头' },
};

const GENERIC_FIELD: I18nText = { en: 'A field', zh: '某个字段' };

/**
 * The label of the field at `path` (a Zod issue path): its last named segment's label, with the
 * position in a list when the path passes through one ("Threshold (item 2)", "阈值（第 2 项）").
 */
export function fieldLabel(path: readonly PropertyKey[], lang: Lang, part: ValidationPart = 'body'): string {
  const names = path.filter((p): p is string => typeof p === 'string');
  const index = [...path].reverse().find((p): p is number => typeof p === 'number' || (typeof p === 'string' && /^\d+$/.test(p)));
  const last = [...names].reverse().find((n) => !/^\d+$/.test(n));
  const label = last === undefined ? PART_LABELS[part][lang] : (FIELD_LABELS[last] ?? GENERIC_FIELD)[lang];
  if (index === undefined) return label;
  const n = Number(index) + 1;
  return lang === 'zh' ? `${label}（第 ${n} 项）` : `${label} (item ${n})`;
}

/** What the checks of a schema report (a Zod issue, or the params of a Fastify validation entry). */
export interface IssueLike {
  code: string;
  message?: string;
  expected?: unknown;
  origin?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  inclusive?: unknown;
  format?: unknown;
  values?: unknown;
  divisor?: unknown;
}

type Phrase = (lang: Lang) => string;
const say = (en: string, zh: string): Phrase => (lang) => (lang === 'zh' ? zh : en);

const EXPECTED: Record<string, I18nText> = {
  string: { en: 'must be text', zh: '应为文本' },
  number: { en: 'must be a number', zh: '应为数字' },
  int: { en: 'must be a whole number', zh: '应为整数' },
  bigint: { en: 'must be a whole number', zh: '应为整数' },
  boolean: { en: 'must be true or false', zh: '应为是或否' },
  array: { en: 'must be a list', zh: '应为列表' },
  object: { en: 'must be a group of fields', zh: '应为一组字段' },
  date: { en: 'must be a date', zh: '应为日期' },
  null: { en: 'must be empty', zh: '应为空' },
};

const FORMATS: Record<string, I18nText> = {
  email: { en: 'must be an e-mail address', zh: '应为邮箱地址' },
  url: { en: 'must be a web address', zh: '应为网址' },
  uuid: { en: 'must be an id of this console', zh: '应为本平台的编号' },
  guid: { en: 'must be an id of this console', zh: '应为本平台的编号' },
  datetime: { en: 'must be a time in ISO 8601 (e.g. 2026-11-26T08:00:00Z)', zh: '应为 ISO 8601 格式的时间（如 2026-11-26T08:00:00Z）' },
  date: { en: 'must be a date YYYY-MM-DD', zh: '应为 YYYY-MM-DD 格式的日期' },
  time: { en: 'must be a time of day HH:mm:ss', zh: '应为 HH:mm:ss 格式的时间' },
  ipv4: { en: 'must be an IP address', zh: '应为 IP 地址' },
  ipv6: { en: 'must be an IP address', zh: '应为 IP 地址' },
  cidrv4: { en: 'must be an address range', zh: '应为地址段' },
  cidrv6: { en: 'must be an address range', zh: '应为地址段' },
  base64: { en: 'must be Base64 text', zh: '应为 Base64 文本' },
  base64url: { en: 'must be Base64 text', zh: '应为 Base64 文本' },
  starts_with: { en: 'does not start as required', zh: '开头不符合要求' },
  ends_with: { en: 'does not end as required', zh: '结尾不符合要求' },
  includes: { en: 'does not contain what is required', zh: '未包含必需的内容' },
};

const num = (v: unknown) => (typeof v === 'bigint' ? v.toString() : typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: 6 }) : String(v));
const listOf = (values: unknown, lang: Lang) =>
  (Array.isArray(values) ? values : []).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(lang === 'zh' ? '、' : ', ');

/** The predicate of an issue ("must be text", "应为文本"); `missing`: the value was absent or null. */
export function issuePredicate(issue: IssueLike, lang: Lang, missing = false): string {
  const i = issue;
  const sizeOrigin = i.origin === 'array' || i.origin === 'set' || i.origin === 'map';
  switch (i.code) {
    case 'invalid_type':
      if (missing) return say('is required', '不能为空')(lang);
      return (EXPECTED[String(i.expected)] ?? { en: 'has the wrong type', zh: '类型有误' })[lang];
    case 'too_small': {
      const min = num(i.minimum);
      if (i.origin === 'string')
        return Number(i.minimum) <= 1 ? say('cannot be empty', '不能为空')(lang) : say(`must be at least ${min} characters`, `至少 ${min} 个字符`)(lang);
      if (sizeOrigin) return say(`must have at least ${min} item${min === '1' ? '' : 's'}`, `至少 ${min} 项`)(lang);
      if (i.origin === 'date') return say('is too early', '时间过早')(lang);
      return i.inclusive === false ? say(`must be greater than ${min}`, `须大于 ${min}`)(lang) : say(`must be at least ${min}`, `不能小于 ${min}`)(lang);
    }
    case 'too_big': {
      const max = num(i.maximum);
      if (i.origin === 'string') return say(`must be at most ${max} characters`, `最多 ${max} 个字符`)(lang);
      if (sizeOrigin) return say(`must have at most ${max} items`, `最多 ${max} 项`)(lang);
      if (i.origin === 'date') return say('is too late', '时间过晚')(lang);
      return i.inclusive === false ? say(`must be less than ${max}`, `须小于 ${max}`)(lang) : say(`must be at most ${max}`, `不能大于 ${max}`)(lang);
    }
    case 'invalid_format':
      return (FORMATS[String(i.format)] ?? { en: 'is not in the right format', zh: '格式有误' })[lang];
    case 'not_multiple_of':
      return say(`must be a multiple of ${num(i.divisor)}`, `须为 ${num(i.divisor)} 的整数倍`)(lang);
    case 'invalid_value':
      return say(`must be one of: ${listOf(i.values, lang)}`, `须为以下取值之一：${listOf(i.values, lang)}`)(lang);
    case 'unrecognized_keys':
      return say('has fields this request does not take', '含有此请求不接受的字段')(lang);
    case 'invalid_key':
      return say('has an invalid key', '含有无效的键')(lang);
    case 'invalid_element':
      return say('has an invalid item', '含有无效的项')(lang);
    case 'invalid_union':
      return say('is not in any of the accepted forms', '不符合任何一种可接受的格式')(lang);
    default:
      // A check of the project's own (refine): its English sentence is ours; in Chinese the kind only.
      if (lang === 'en' && i.code === 'custom' && i.message && !isErrorCode(i.message)) return `is not valid (${i.message})`;
      return say('is not valid', '不符合要求')(lang);
  }
}

/**
 * One refused value as a sentence: the catalogue's text when the schema names an error code,
 * otherwise the field's label and the issue's predicate ("Account must be text", "账号应为文本").
 */
export function issueSentence(
  issue: IssueLike & { path: readonly PropertyKey[] },
  lang: Lang,
  opts: { missing?: boolean; part?: ValidationPart } = {},
): string {
  if (isErrorCode(issue.message)) return errorText(issue.message, lang);
  const label = fieldLabel(issue.path, lang, opts.part);
  const predicate = issuePredicate(issue, lang, opts.missing);
  return lang === 'zh' ? `${label}${predicate}` : `${label} ${predicate}`;
}
