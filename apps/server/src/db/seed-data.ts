// What the seed puts in: the menu tree of every scenario type (spec sections 1 and 2) and the
// dictionaries. Screen names in `url` are the names the web app's view host resolves.
import type { ScenarioType } from '@iotc/shared/constants';

export interface MenuNode {
  code: string;
  zh: string;
  en: string;
  url?: string;
  icon?: string;
  platformOnly?: boolean;
  /**
   * A sibling's code: when this entry is new to a database, the roles that hold that sibling get it
   * too (an existing installation's organisation administrators get a new management screen).
   */
  grantWith?: string;
  children?: MenuNode[];
}

const SCENARIO_PREFIX: Record<ScenarioType, string> = {
  101: 'scenario_transport/',
  102: '',
  103: 'scenario_container/',
  104: 'scenario_vehicle/',
};

function monitoring(type: ScenarioType): MenuNode {
  return {
    code: 'monitor',
    zh: '监控告警管理',
    en: 'Monitoring and alarm management',
    icon: 'AlertOutlined',
    children: [
      {
        code: 'monitor-live',
        zh: '实时监控',
        en: 'Real-time monitoring',
        children: [
          {
            code: 'monitor-live-device',
            zh: '设备实时监控',
            en: 'Device monitoring',
            url: `view/${SCENARIO_PREFIX[type]}deviceManage/realTimeMonitoring`,
          },
          { code: 'monitor-live-sensors', zh: '传感器曲线', en: 'Sensor curves', url: `view/${SCENARIO_PREFIX[type]}deviceManage/sensors` },
          { code: 'monitor-live-alarm', zh: '实时告警监控', en: 'Alarm monitoring', url: 'view/alarm/realtime' },
        ],
      },
      {
        code: 'monitor-alarm',
        zh: '告警管理',
        en: 'Alarm management',
        children: [
          { code: 'monitor-alarm-policy', zh: '告警策略', en: 'Alarm policy', url: 'view/alarm/policy' },
          { code: 'monitor-alarm-query', zh: '告警查询', en: 'Alarm query', url: 'view/alarm/query' },
          { code: 'monitor-alarm-levels', zh: '告警等级', en: 'Alarm levels', url: 'view/alarm/levels' },
          { code: 'monitor-alarm-places', zh: '地点库', en: 'Place library', url: 'view/alarm/places', grantWith: 'monitor-alarm-policy' },
          { code: 'monitor-alarm-push', zh: '消息推送', en: 'Message push', url: 'view/alarm/push' },
          { code: 'monitor-alarm-flow', zh: '告警流转', en: 'Alarm flow', url: 'view/alarm/flow' },
          { code: 'monitor-alarm-orders', zh: '工单管理', en: 'Work orders', url: 'view/alarm/workOrders' },
        ],
      },
    ],
  };
}

const transport: MenuNode = {
  code: 'transport',
  zh: '运输任务管理',
  en: 'Transport task management',
  icon: 'CarOutlined',
  children: [
    {
      code: 'transport-tasks',
      zh: '任务管理',
      en: 'Tasks',
      children: [
        { code: 'transport-tasks-info', zh: '任务信息', en: 'Task information', url: 'view/transport/tasks' },
        { code: 'transport-tasks-templates', zh: '任务模板', en: 'Templates', url: 'view/transport/templates' },
        { code: 'transport-tasks-status', zh: '状态监控', en: 'Status monitoring', url: 'view/transport/status' },
      ],
    },
    {
      code: 'transport-data',
      zh: '运输数据',
      en: 'Transport data',
      children: [
        { code: 'transport-data-history', zh: '历史轨迹', en: 'History track', url: 'view/transport/history' },
        { code: 'transport-data-sensors', zh: '传感器曲线监控', en: 'Sensor curve monitoring', url: 'view/transport/sensors' },
        { code: 'transport-data-alarms', zh: '异常告警监控与推送', en: 'Abnormal-alarm monitoring and push', url: 'view/transport/alarms' },
        { code: 'transport-data-reports', zh: '生产报表', en: 'Production reports', url: 'view/transport/reports' },
      ],
    },
  ],
};

const common: MenuNode[] = [
  {
    code: 'warehouse',
    zh: '仓储作业',
    en: 'Warehouse operations',
    icon: 'HomeOutlined',
    children: [
      {
        code: 'warehouse-ops',
        zh: '出入库作业',
        en: 'Inbound and outbound',
        children: [
          { code: 'warehouse-ops-records', zh: '出入库记录', en: 'Inbound and outbound records', url: 'view/warehouse/manage' },
          { code: 'warehouse-ops-stock', zh: '库存', en: 'Stock', url: 'view/warehouse/stock' },
          { code: 'warehouse-ops-batches', zh: '批次温度预算', en: 'Batch excursion budgets', url: 'view/warehouse/batches', grantWith: 'warehouse-ops-stock' },
          { code: 'warehouse-ops-profiles', zh: '产品档案', en: 'Product profiles', url: 'view/warehouse/profiles', grantWith: 'warehouse-ops-stock' },
        ],
      },
    ],
  },
  {
    code: 'compare',
    zh: '运营数据对比',
    en: 'Operational data comparison',
    icon: 'BarChartOutlined',
    children: [{ code: 'compare-main', zh: '数据对比', en: 'Data comparison', url: 'view/compare/index' }],
  },
  {
    code: 'asset',
    zh: '设备资产管理',
    en: 'Equipment asset management',
    icon: 'DatabaseOutlined',
    children: [
      {
        code: 'asset-registry',
        zh: '资产管理',
        en: 'Asset management',
        children: [
          { code: 'asset-registry-devices', zh: '设备', en: 'Devices', url: 'view/deviceManage/devices' },
          { code: 'asset-registry-jt808-models', zh: 'JT/T 808 终端型号', en: 'JT/T 808 terminal models', url: 'view/deviceManage/jt808Models' },
          { code: 'asset-registry-vehicles', zh: '车辆', en: 'Vehicles', url: 'view/asset/vehicles' },
          { code: 'asset-registry-containers', zh: '集装箱', en: 'Containers', url: 'view/asset/containers' },
          { code: 'asset-registry-gateways', zh: '网关', en: 'Gateways', url: 'view/asset/gateways' },
        ],
      },
      { code: 'asset-coldchain', zh: '冷链仓库资产', en: 'Cold-chain warehouse assets', url: 'view/asset/coldChain' },
      { code: 'asset-control', zh: '远程控制审核', en: 'Remote-control review', url: 'view/asset/remoteControl' },
    ],
  },
  {
    code: 'fault',
    zh: '故障管理',
    en: 'Fault management',
    icon: 'ToolOutlined',
    children: [{ code: 'fault-list', zh: '故障记录', en: 'Faults', url: 'view/fault/list' }],
  },
  {
    code: 'report',
    zh: '报表',
    en: 'Reports',
    icon: 'FileTextOutlined',
    children: [
      { code: 'report-temperature', zh: '温湿度报表', en: 'Temperature and humidity reports', url: 'view/report/temperature' },
      { code: 'report-alarm', zh: '告警报表', en: 'Alarm reports', url: 'view/report/alarm' },
      { code: 'report-online', zh: '设备在线率', en: 'Device online rate', url: 'view/report/online' },
      { code: 'report-mileage', zh: '里程报表', en: 'Mileage', url: 'view/report/mileage' },
      { code: 'report-schedules', zh: '定时报表', en: 'Scheduled reports', url: 'view/report/schedules' },
    ],
  },
  {
    code: 'cockpit',
    zh: '驾驶舱',
    en: 'Cockpit',
    icon: 'DashboardOutlined',
    children: [{ code: 'cockpit-main', zh: '驾驶舱大屏', en: 'Cockpit screen', url: 'view/cockpit/index' }],
  },
  {
    code: 'ledger',
    zh: '区块链溯源',
    en: 'Blockchain traceability',
    icon: 'SafetyCertificateOutlined',
    children: [{ code: 'ledger-verify', zh: '溯源验证', en: 'Record verification', url: 'view/ledger/verify' }],
  },
  {
    code: 'platform',
    zh: '平台管理',
    en: 'Platform management',
    icon: 'SettingOutlined',
    platformOnly: true,
    children: [
      { code: 'platform-orgs', zh: '组织管理', en: 'Organisations', url: 'view/system/orgs', platformOnly: true },
      { code: 'platform-users', zh: '用户管理', en: 'Users', url: 'view/system/users', platformOnly: true },
      { code: 'platform-roles', zh: '角色管理', en: 'Roles', url: 'view/system/roles', platformOnly: true },
      { code: 'platform-audit', zh: '操作日志', en: 'Audit log', url: 'view/system/auditLogs', platformOnly: true },
      { code: 'platform-outbox', zh: '发件箱', en: 'Outbox', url: 'view/system/outbox', platformOnly: true },
      { code: 'platform-retention', zh: '数据保留', en: 'Data retention', url: 'view/system/retention', platformOnly: true, grantWith: 'platform-orgs' },
      { code: 'platform-storage', zh: '存储', en: 'Storage', url: 'view/system/storage', platformOnly: true },
      { code: 'platform-map', zh: '地图设置', en: 'Map settings', url: 'view/system/map', platformOnly: true },
      { code: 'platform-notices', zh: '平台公告', en: 'Platform notices', url: 'view/system/notices', platformOnly: true },
    ],
  },
];

export function menuTree(type: ScenarioType): MenuNode[] {
  return type === 101 ? [monitoring(type), transport, ...common] : [monitoring(type), ...common];
}

export interface DictSeed {
  code: string;
  zh: string;
  en: string;
  items: [key: string, zh: string, en: string][];
}

export const DICTS: DictSeed[] = [
  {
    code: 'device_status',
    zh: '设备状态',
    en: 'Device status',
    items: [
      ['unused', '未使用', 'Unused'],
      ['shutdown', '关机', 'Shutdown'],
      ['offline', '离线', 'Offline'],
      ['parked', '停车', 'Parked'],
      ['driving', '行驶', 'Driving'],
    ],
  },
  {
    code: 'alarm_type',
    zh: '告警类型',
    en: 'Alarm type',
    items: [
      ['temp_high', '温度过高', 'Temperature high'],
      ['temp_low', '温度过低', 'Temperature low'],
      ['humidity_high', '湿度过高', 'Humidity high'],
      ['humidity_low', '湿度过低', 'Humidity low'],
      ['vibration', '震动', 'Vibration'],
      ['light', '光照（开箱）', 'Light (package opened)'],
      ['pressure', '气压', 'Pressure'],
      ['low_battery', '低电量', 'Low battery'],
      ['door_abnormal', '异常开门', 'Abnormal door opening'],
      ['overspeed', '超速', 'Overspeed'],
      ['yaw', '偏航', 'Yaw'],
      ['stay_timeout', '停留超时', 'Stay timeout'],
      ['offline', '设备离线', 'Device offline'],
      ['battery_temp', '电池温度', 'Battery temperature'],
      ['jt808_sos', '紧急报警', 'Emergency (SOS)'],
      ['jt808_overspeed', '超速报警', 'Terminal overspeed'],
      ['jt808_fatigue_driving', '疲劳驾驶', 'Fatigue driving'],
      ['jt808_danger_warning', '危险预警', 'Danger warning'],
      ['jt808_gnss_module_fault', 'GNSS模块故障', 'GNSS module fault'],
      ['jt808_gnss_antenna_disconnected', 'GNSS天线未接或被剪断', 'GNSS antenna disconnected or cut'],
      ['jt808_gnss_antenna_short_circuit', 'GNSS天线短路', 'GNSS antenna short circuit'],
      ['jt808_power_under_voltage', '主电源欠压', 'Main power low voltage'],
      ['jt808_power_cut', '主电源掉电', 'Main power cut'],
      ['jt808_display_fault', 'LCD或显示器故障', 'Display fault'],
      ['jt808_tts_fault', 'TTS模块故障', 'TTS module fault'],
      ['jt808_camera_fault', '摄像头故障', 'Camera fault'],
      ['jt808_ic_card_module_fault', '道路运输证IC卡模块故障', 'IC card module fault'],
      ['jt808_overspeed_warning', '超速预警', 'Overspeed warning'],
      ['jt808_fatigue_warning', '疲劳驾驶预警', 'Fatigue driving warning'],
      ['jt808_illegal_driving', '违规行驶报警', 'Illegal driving'],
      ['jt808_tire_pressure_warning', '胎压预警', 'Tyre pressure warning'],
      ['jt808_right_turn_blind_spot', '右转盲区异常报警', 'Right-turn blind spot abnormal'],
      ['jt808_driving_time_exceeded', '当天累计驾驶超时', 'Daily driving time exceeded'],
      ['jt808_parking_timeout', '超时停车', 'Parking timeout'],
      ['jt808_area_in_out', '进出区域', 'Entering or leaving an area'],
      ['jt808_route_in_out', '进出路线', 'Entering or leaving a route'],
      ['jt808_route_time_abnormal', '路段行驶时间不足/过长', 'Route section driving time too short or too long'],
      ['jt808_route_deviation', '路线偏离报警', 'Route deviation'],
      ['jt808_vss_fault', '车辆VSS故障', 'Vehicle speed sensor (VSS) fault'],
      ['jt808_fuel_abnormal', '车辆油量异常', 'Fuel level abnormal'],
      ['jt808_stolen', '车辆被盗', 'Vehicle stolen'],
      ['jt808_illegal_ignition', '车辆非法点火', 'Illegal ignition'],
      ['jt808_illegal_displacement', '非法位移', 'Illegal displacement'],
      ['jt808_collision', '碰撞预警', 'Collision warning'],
      ['jt808_rollover', '侧翻预警', 'Rollover warning'],
      ['jt808_illegal_door_open', '非法开门报警', 'Illegal door opening'],
    ],
  },
  {
    code: 'alarm_level',
    zh: '告警等级',
    en: 'Alarm level',
    items: [
      ['urgent', '紧急', 'Urgent'],
      ['important', '重要', 'Important'],
      ['minor', '次要', 'Minor'],
      ['reminder', '提醒', 'Reminder'],
    ],
  },
  {
    code: 'door_state',
    zh: '门状态',
    en: 'Door state',
    items: [
      ['0', '关闭', 'Closed'],
      ['1', '打开', 'Open'],
    ],
  },
  {
    code: 'network',
    zh: '网络类型',
    en: 'Network',
    items: [
      ['2G', '2G', '2G'],
      ['3G', '3G', '3G'],
      ['4G', '4G', '4G'],
    ],
  },
  {
    code: 'positioning',
    zh: '定位方式',
    en: 'Positioning',
    items: [
      ['GPS', 'GPS定位', 'GPS'],
      ['LBS', '基站定位', 'LBS'],
    ],
  },
  {
    code: 'audit_action',
    zh: '操作类型',
    en: 'Action',
    items: [
      ['login', '登录', 'Sign in'],
      ['logout', '退出登录', 'Sign out'],
      ['password_change', '修改密码', 'Password change'],
      ['register', '注册', 'Registration'],
      ['code_send', '发送验证码', 'Verification code sent'],
      ['code_verify', '校验验证码', 'Verification code check'],
      ['password_reset', '找回密码', 'Password reset'],
      ['sso_login', '第三方登录', 'External sign-in'],
      ['sso_bind', '绑定第三方账号', 'External identity binding'],
      ['org_create', '新建组织', 'Organisation created'],
      ['org_update', '修改组织', 'Organisation changed'],
      ['org_deactivate', '停用组织', 'Organisation deactivated'],
      ['org_activate', '启用组织', 'Organisation activated'],
      ['org_delete', '删除组织', 'Organisation deleted'],
      ['user_create', '新建用户', 'User created'],
      ['user_update', '修改用户', 'User changed'],
      ['user_deactivate', '停用用户', 'User deactivated'],
      ['user_activate', '启用用户', 'User activated'],
      ['user_reset_password', '重置密码', 'Password reset by administrator'],
      ['user_roles', '分配角色', 'Roles assigned'],
      ['role_create', '新建角色', 'Role created'],
      ['role_update', '修改角色权限', 'Role permissions changed'],
      ['role_delete', '删除角色', 'Role deleted'],
      ['device_create', '新建设备', 'Device created'],
      ['device_update', '修改设备', 'Device changed'],
      ['device_secret', '重置设备密钥', 'Device secret reset'],
      ['device_delete', '删除设备', 'Device deleted'],
      ['device_import', '导入设备', 'Devices imported'],
      ['device_bind', '绑定设备', 'Device bound'],
      ['device_unbind', '解绑设备', 'Device unbound'],
      ['asset_create', '新增资产', 'Asset created'],
      ['asset_update', '修改资产', 'Asset changed'],
      ['asset_delete', '删除资产', 'Asset deleted'],
      ['asset_import', '导入资产', 'Assets imported'],
      ['ledger_share_create', '创建验证分享链接', 'Verification link shared'],
      ['ledger_share_revoke', '撤销验证分享链接', 'Verification link revoked'],
      ['transport_tracking_link_create', '创建运输跟踪链接', 'Tracking link made'],
      ['transport_tracking_link_revoke', '撤销运输跟踪链接', 'Tracking link revoked'],
      ['retention_rule_update', '修改数据保留规则', 'Retention rule changed'],
      ['retention_remove', '按保留规则删除数据', 'Readings removed by retention'],
      ['legal_hold_place', '设置法律保全', 'Legal hold placed'],
      ['legal_hold_release', '解除法律保全', 'Legal hold released'],
      ['map_tiles_update', '修改地图来源', 'Map source changed'],
      ['notice_publish', '发布平台公告', 'Notice published'],
      ['notice_withdraw', '撤回平台公告', 'Notice withdrawn'],
      ['place_create', '新建地点', 'Place created'],
      ['place_update', '修改地点', 'Place changed'],
      ['place_delete', '删除地点', 'Place deleted'],
      ['place_import', '导入地点', 'Places imported'],
      ['product_profile_create', '新建产品档案', 'Product profile created'],
      ['product_profile_update', '修改产品档案', 'Product profile changed'],
      ['product_profile_delete', '删除产品档案', 'Product profile deleted'],
      ['product_batch_create', '新建批次', 'Batch created'],
      ['product_batch_update', '修改批次', 'Batch changed'],
      ['product_batch_delete', '删除批次', 'Batch deleted'],
      ['product_task_batches', '设置任务所载批次', 'Batches of a task set'],
      ['alarm_level_create', '新建告警级别', 'Alarm level created'],
      ['alarm_level_update', '修改告警级别', 'Alarm level changed'],
      ['alarm_level_delete', '删除告警级别', 'Alarm level deleted'],
      ['alarm_policy_create', '新建告警策略', 'Alarm policy created'],
      ['alarm_policy_update', '修改告警策略', 'Alarm policy changed'],
      ['alarm_policy_enable', '启用告警策略', 'Alarm policy enabled'],
      ['alarm_policy_disable', '停用告警策略', 'Alarm policy disabled'],
      ['alarm_policy_copy', '复制告警策略', 'Alarm policy copied'],
      ['alarm_policy_delete', '删除告警策略', 'Alarm policy deleted'],
      ['alarm_policy_import', '导入告警策略', 'Alarm policies imported'],
      ['push_rule_create', '新建推送规则', 'Push rule created'],
      ['push_rule_update', '修改推送规则', 'Push rule changed'],
      ['push_rule_enable', '启用推送规则', 'Push rule enabled'],
      ['push_rule_disable', '停用推送规则', 'Push rule disabled'],
      ['push_rule_delete', '删除推送规则', 'Push rule deleted'],
      ['jt808_model_create', '新建 JT/T 808 型号映射', 'JT/T 808 model mapping created'],
      ['jt808_model_update', '修改 JT/T 808 型号映射', 'JT/T 808 model mapping changed'],
      ['jt808_model_delete', '删除 JT/T 808 型号映射', 'JT/T 808 model mapping deleted'],
      ['transport_task_create', '新建运输任务', 'Transport task created'],
      ['transport_task_update', '修改运输任务', 'Transport task changed'],
      ['transport_task_transition', '变更运输任务状态', 'Transport task status changed'],
      ['transport_task_handover', '记录货物交接', 'Goods handover recorded'],
      ['transport_task_copy', '复制运输任务', 'Transport task copied'],
      ['transport_task_import', '导入运输任务', 'Transport tasks imported'],
      ['transport_template_create', '新建运输模板', 'Transport template created'],
      ['transport_template_update', '修改运输模板', 'Transport template changed'],
      ['transport_template_delete', '删除运输模板', 'Transport template deleted'],
      ['report_schedule_create', '新建定时报表', 'Report schedule created'],
      ['report_schedule_update', '修改定时报表', 'Report schedule changed'],
      ['report_schedule_enable', '启用定时报表', 'Report schedule enabled'],
      ['report_schedule_disable', '停用定时报表', 'Report schedule disabled'],
      ['report_schedule_delete', '删除定时报表', 'Report schedule deleted'],
      ['report_schedule_run', '立即发送报表', 'Scheduled report sent now'],
      ['command_request', '申请下发指令', 'Command requested'],
      ['command_cancel', '撤回指令申请', 'Command request withdrawn'],
      ['alarm_acknowledge', '确认告警', 'Alarm acknowledged'],
      ['alarm_comment', '评论告警', 'Alarm commented'],
      ['alarm_assign', '指派告警', 'Alarm assigned'],
      ['alarm_close', '关闭告警', 'Alarm closed'],
      ['fault_repair', '记录故障维修', 'Fault repair recorded'],
      ['push_delivery_resend', '重新推送告警', 'Alarm push sent again'],
      ['work_order_create', '新建工单', 'Work order created'],
      ['work_order_update', '修改工单', 'Work order changed'],
      ['work_order_transition', '变更工单状态', 'Work order status changed'],
      ['work_order_comment', '评论工单', 'Work order commented'],
      ['work_order_alarms', '工单关联告警', 'Alarms added to a work order'],
      ['signature', '电子签名', 'Electronic signature'],
      ['warehouse_record_create', '新建出入库记录', 'Warehouse record created'],
      ['warehouse_record_update', '修改出入库记录', 'Warehouse record changed'],
      ['warehouse_record_delete', '删除出入库记录', 'Warehouse record deleted'],
      ['warehouse_record_import', '导入出入库记录', 'Warehouse records imported'],
    ],
  },
  {
    code: 'audit_result',
    zh: '操作结果',
    en: 'Result',
    items: [
      ['success', '成功', 'Success'],
      ['failure', '失败', 'Failure'],
    ],
  },
];
