// The screens the view host opens by name (`/view/<name>`), their mock-mode aliases, and how
// an address becomes a name. A screen not listed here shows the not-found page.
// Each console screen, and each public page, names the message parts its texts use beyond the
// account and shell parts (app/locale-parts.ts), and renders once they are in (`withParts`):
// locale-parts.test.ts walks each screen's imports (its drawers and dialogs loaded later too) and
// fails on a key outside its list, or on a part listed but not used.
import type { ScenarioType } from '@iotc/shared/constants';
import type { ScreenImporter } from '../../lib/screen.ts';
import { loadMessageParts } from '../i18n.ts';

/** A screen's code, handed over once its message parts are in for every language loaded. */
function withParts(importer: ScreenImporter, parts: readonly string[]): ScreenImporter {
  return () => Promise.all([importer(), loadMessageParts(parts)]).then(([screen]) => screen);
}

export const LOGIN_SCREEN: ScreenImporter = () => import('../../features/auth/pages/login-page.tsx');
export const CHANGE_PASSWORD_SCREEN: ScreenImporter = () => import('../../features/auth/pages/change-password-page.tsx');
export const PRODUCT_SERVICE_SCREEN: ScreenImporter = withParts(() => import('../../features/auth/pages/product-service-page.tsx'), ['services']);
export const SUCCESS_SCREEN: ScreenImporter = () => import('../../features/auth/pages/success-page.tsx');
export const REGISTER_SCREEN: ScreenImporter = () => import('../../features/auth/pages/register-page.tsx');
export const RETRIEVE_PASSWORD_SCREEN: ScreenImporter = () => import('../../features/auth/pages/retrieve-password-page.tsx');
export const BIND_USER_SCREEN: ScreenImporter = () => import('../../features/auth/pages/bind-user-page.tsx');
/** Where the provider's answer to a sign-in again (for an electronic signature) lands, in its own window. */
export const REAUTH_DONE_SCREEN: ScreenImporter = () => import('../../features/auth/pages/reauth-done-page.tsx');
/** The public verification page of a ledger share link (`/verify/:token`), no login. */
export const LEDGER_PUBLIC_SCREEN: ScreenImporter = withParts(() => import('../../features/ledger/pages/public-verify-page.tsx'), ['ledger']);
/** An unknown address outside the console: loaded when met, not with the first load. */
export const NOT_FOUND_SCREEN: ScreenImporter = () => import('../../components/not-found.tsx');
/** The public page of a consignee's tracking link (`/track/:token`), no login. */
export const TRACKING_PUBLIC_SCREEN: ScreenImporter = withParts(() => import('../../features/transport/pages/public-tracking-page.tsx'), ['tracking', 'transport']);

export const SCREENS: Record<string, ScreenImporter> = {
  home: withParts(() => import('../../features/home/pages/index-page.tsx'), ['index']),
  'home/home': withParts(() => import('../../features/home/pages/home-page.tsx'), ['home']),
  'deviceManage/realTimeMonitoring': withParts(() => import('../../features/device/pages/real-time-monitoring-page.tsx'), ['monitor']),
  'deviceManage/devices': withParts(() => import('../../features/asset/pages/devices-page.tsx'), ['asset']),
  'deviceManage/jt808Models': withParts(() => import('../../features/jt808-model/pages/terminal-models-page.tsx'), ['jt808Model']),
  'asset/vehicles': withParts(() => import('../../features/asset/pages/vehicles-page.tsx'), ['asset', 'place']),
  'asset/containers': withParts(() => import('../../features/asset/pages/containers-page.tsx'), ['asset', 'place']),
  'asset/gateways': withParts(() => import('../../features/asset/pages/gateways-page.tsx'), ['asset', 'place']),
  'asset/coldChain': withParts(() => import('../../features/asset/pages/cold-chain-page.tsx'), ['asset', 'place']),
  'deviceManage/sensors': withParts(() => import('../../features/sensors/pages/sensors-page.tsx'), ['sensors']),
  'transport/sensors': withParts(() => import('../../features/sensors/pages/sensors-page.tsx'), ['sensors']),
  'transport/tasks': withParts(() => import('../../features/transport/pages/tasks-page.tsx'), ['alarm', 'place', 'product', 'signature', 'tracking', 'transport']),
  'transport/templates': withParts(() => import('../../features/transport/pages/templates-page.tsx'), ['place', 'transport']),
  'transport/reports': withParts(() => import('../../features/transport-report/pages/production-page.tsx'), ['transportReport']),
  'transport/history': withParts(() => import('../../features/track/pages/history-page.tsx'), ['track']),
  'transport/status': withParts(() => import('../../features/transport-monitor/pages/status-page.tsx'), ['transportMonitor']),
  'system/auditLogs': withParts(() => import('../../features/system/pages/audit-logs-page.tsx'), ['audit']),
  'system/orgs': withParts(() => import('../../features/system/pages/orgs-page.tsx'), ['system']),
  'system/users': withParts(() => import('../../features/system/pages/users-page.tsx'), ['system']),
  'system/roles': withParts(() => import('../../features/system/pages/roles-page.tsx'), ['services', 'system']),
  'system/outbox': withParts(() => import('../../features/system/pages/outbox-page.tsx'), ['outbox']),
  'system/retention': withParts(() => import('../../features/retention/pages/retention-page.tsx'), ['retention']),
  'system/storage': withParts(() => import('../../features/system/pages/storage-page.tsx'), ['storage']),
  'system/map': withParts(() => import('../../features/system/pages/map-settings-page.tsx'), ['mapSettings']),
  'system/notices': withParts(() => import('../../features/system/pages/notices-page.tsx'), ['notices']),
  // The full inbox, open to every signed-in user (the header's drawer leads to it).
  inbox: withParts(() => import('../../features/inbox/pages/inbox-page.tsx'), []),
  'alarm/query': withParts(() => import('../../features/alarm/pages/alarm-query-page.tsx'), ['alarm']),
  'alarm/realtime': withParts(() => import('../../features/alarm/pages/alarm-realtime-page.tsx'), ['alarm']),
  // The transport scenario's 'Abnormal-alarm monitoring and push' shows the real-time alarms of tasks.
  'transport/alarms': withParts(() => import('../../features/alarm/pages/task-alarms-page.tsx'), ['alarm']),
  'alarm/levels': withParts(() => import('../../features/alarm-config/pages/alarm-levels-page.tsx'), ['alarmConfig']),
  'alarm/places': withParts(() => import('../../features/place/pages/places-page.tsx'), ['place']),
  'alarm/policy': withParts(() => import('../../features/alarm-config/pages/alarm-policies-page.tsx'), ['alarmConfig', 'asset', 'place']),
  'alarm/push': withParts(() => import('../../features/alarm-push/pages/message-push-page.tsx'), ['alarm', 'alarmPush']),
  'alarm/flow': withParts(() => import('../../features/alarm/pages/alarm-flow-page.tsx'), ['alarm']),
  'alarm/workOrders': withParts(() => import('../../features/work-order/pages/work-orders-page.tsx'), ['alarm', 'signature', 'workOrder']),
  'fault/list': withParts(() => import('../../features/fault/pages/faults-page.tsx'), ['alarm', 'fault']),
  'warehouse/manage': withParts(() => import('../../features/warehouse/pages/records-page.tsx'), ['signature', 'warehouse']),
  'warehouse/stock': withParts(() => import('../../features/warehouse/pages/stock-page.tsx'), ['warehouse']),
  'warehouse/batches': withParts(() => import('../../features/product/pages/batches-page.tsx'), ['product']),
  'warehouse/profiles': withParts(() => import('../../features/product/pages/profiles-page.tsx'), ['product']),
  'asset/remoteControl': withParts(() => import('../../features/remote-control/pages/remote-control-page.tsx'), ['remoteControl', 'signature']),
  'cockpit/index': withParts(() => import('../../features/cockpit/pages/cockpit-page.tsx'), ['cockpit']),
  'report/temperature': withParts(() => import('../../features/gsp-report/pages/temperature-report-page.tsx'), ['gspReport', 'signature']),
  'compare/index': withParts(() => import('../../features/compare/pages/compare-page.tsx'), ['compare']),
  'report/alarm': withParts(() => import('../../features/ops-report/pages/alarm-report-page.tsx'), ['opsReport']),
  'report/online': withParts(() => import('../../features/ops-report/pages/online-report-page.tsx'), ['opsReport']),
  'report/mileage': withParts(() => import('../../features/ops-report/pages/mileage-report-page.tsx'), ['opsReport']),
  'report/schedules': withParts(() => import('../../features/report-schedule/pages/schedules-page.tsx'), ['reportSchedule']),
  'ledger/verify': withParts(() => import('../../features/ledger/pages/verify-page.tsx'), ['ledger', 'tracking']),
};

/**
 * Mock-mode menu paths of the spec, pointing at the real screen names. Targets without an
 * entry in SCREENS are not built yet and resolve to not-found like any unbuilt screen.
 */
export const ALIASES: Record<string, string> = {
  Home: 'home',
  'Warehouse/manage': 'warehouse/manage',
  'Asset/asset': 'asset/coldChain',
  'Asset/control': 'asset/remoteControl',
  'Monitorwarn/warning_policy': 'alarm/policy',
};

/** Scenario prefixes of the menu urls (spec section 2); device (102) has none. */
export const SCENARIO_PREFIXES: Record<string, ScenarioType> = {
  scenario_transport: 101,
  scenario_container: 103,
  scenario_vehicle: 104,
};

export interface ResolvedScreen {
  name: string;
  importer: ScreenImporter;
  id?: string;
  scenarioType?: ScenarioType;
}

// Addresses are user input: only own keys count, never Object.prototype's.
function own<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

function lookup(name: string): { name: string; importer: ScreenImporter } | undefined {
  const real = own(ALIASES, name) ?? name;
  const importer = own(SCREENS, real);
  return importer ? { name: real, importer } : undefined;
}

/**
 * Segments after /view to a screen: a known scenario_* first segment is dropped, then
 * view/page/id is tried as a name, then view/page with the id handed to the screen.
 */
export function resolveScreen(segments: string[]): ResolvedScreen | undefined {
  let rest = segments.filter(Boolean);
  const scenarioType = rest[0] ? own(SCENARIO_PREFIXES, rest[0]) : undefined;
  if (scenarioType) rest = rest.slice(1);
  if (rest.length === 0 || rest.length > 3) return undefined;
  const full = lookup(rest.join('/'));
  if (full) return { ...full, scenarioType };
  if (rest.length === 3) {
    const partial = lookup(rest.slice(0, 2).join('/'));
    if (partial) return { ...partial, id: rest[2], scenarioType };
  }
  return undefined;
}
