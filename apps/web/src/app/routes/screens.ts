// The screens the view host opens by name (`/view/<name>`), their mock-mode aliases, and how
// an address becomes a name. A screen not listed here shows the not-found page.
import type { ScenarioType } from '@iotc/shared/constants';
import type { ScreenImporter } from '../../lib/screen.ts';

export const LOGIN_SCREEN: ScreenImporter = () => import('../../features/auth/pages/login-page.tsx');
export const CHANGE_PASSWORD_SCREEN: ScreenImporter = () => import('../../features/auth/pages/change-password-page.tsx');
export const PRODUCT_SERVICE_SCREEN: ScreenImporter = () => import('../../features/auth/pages/product-service-page.tsx');
export const SUCCESS_SCREEN: ScreenImporter = () => import('../../features/auth/pages/success-page.tsx');
export const REGISTER_SCREEN: ScreenImporter = () => import('../../features/auth/pages/register-page.tsx');
export const RETRIEVE_PASSWORD_SCREEN: ScreenImporter = () => import('../../features/auth/pages/retrieve-password-page.tsx');
export const BIND_USER_SCREEN: ScreenImporter = () => import('../../features/auth/pages/bind-user-page.tsx');
/** Where the provider's answer to a sign-in again (for an electronic signature) lands, in its own window. */
export const REAUTH_DONE_SCREEN: ScreenImporter = () => import('../../features/auth/pages/reauth-done-page.tsx');
/** The public verification page of a ledger share link (`/verify/:token`), no login. */
export const LEDGER_PUBLIC_SCREEN: ScreenImporter = () => import('../../features/ledger/pages/public-verify-page.tsx');
/** An unknown address outside the console: loaded when met, not with the first load. */
export const NOT_FOUND_SCREEN: ScreenImporter = () => import('../../components/not-found.tsx');
/** The public page of a consignee's tracking link (`/track/:token`), no login. */
export const TRACKING_PUBLIC_SCREEN: ScreenImporter = () => import('../../features/transport/pages/public-tracking-page.tsx');

export const SCREENS: Record<string, ScreenImporter> = {
  home: () => import('../../features/home/pages/index-page.tsx'),
  'home/home': () => import('../../features/home/pages/home-page.tsx'),
  'deviceManage/realTimeMonitoring': () => import('../../features/device/pages/real-time-monitoring-page.tsx'),
  'deviceManage/devices': () => import('../../features/asset/pages/devices-page.tsx'),
  'deviceManage/jt808Models': () => import('../../features/jt808-model/pages/terminal-models-page.tsx'),
  'asset/vehicles': () => import('../../features/asset/pages/vehicles-page.tsx'),
  'asset/containers': () => import('../../features/asset/pages/containers-page.tsx'),
  'asset/gateways': () => import('../../features/asset/pages/gateways-page.tsx'),
  'asset/coldChain': () => import('../../features/asset/pages/cold-chain-page.tsx'),
  'deviceManage/sensors': () => import('../../features/sensors/pages/sensors-page.tsx'),
  'transport/sensors': () => import('../../features/sensors/pages/sensors-page.tsx'),
  'transport/tasks': () => import('../../features/transport/pages/tasks-page.tsx'),
  'transport/templates': () => import('../../features/transport/pages/templates-page.tsx'),
  'transport/reports': () => import('../../features/transport-report/pages/production-page.tsx'),
  'transport/history': () => import('../../features/track/pages/history-page.tsx'),
  'transport/status': () => import('../../features/transport-monitor/pages/status-page.tsx'),
  'system/auditLogs': () => import('../../features/system/pages/audit-logs-page.tsx'),
  'system/orgs': () => import('../../features/system/pages/orgs-page.tsx'),
  'system/users': () => import('../../features/system/pages/users-page.tsx'),
  'system/roles': () => import('../../features/system/pages/roles-page.tsx'),
  'system/outbox': () => import('../../features/system/pages/outbox-page.tsx'),
  'system/retention': () => import('../../features/retention/pages/retention-page.tsx'),
  'system/storage': () => import('../../features/system/pages/storage-page.tsx'),
  'system/map': () => import('../../features/system/pages/map-settings-page.tsx'),
  'system/notices': () => import('../../features/system/pages/notices-page.tsx'),
  // The full inbox, open to every signed-in user (the header's drawer leads to it).
  inbox: () => import('../../features/inbox/pages/inbox-page.tsx'),
  'alarm/query': () => import('../../features/alarm/pages/alarm-query-page.tsx'),
  'alarm/realtime': () => import('../../features/alarm/pages/alarm-realtime-page.tsx'),
  // The transport scenario's 'Abnormal-alarm monitoring and push' shows the real-time alarms of tasks.
  'transport/alarms': () => import('../../features/alarm/pages/task-alarms-page.tsx'),
  'alarm/levels': () => import('../../features/alarm-config/pages/alarm-levels-page.tsx'),
  'alarm/places': () => import('../../features/place/pages/places-page.tsx'),
  'alarm/policy': () => import('../../features/alarm-config/pages/alarm-policies-page.tsx'),
  'alarm/push': () => import('../../features/alarm-push/pages/message-push-page.tsx'),
  'alarm/flow': () => import('../../features/alarm/pages/alarm-flow-page.tsx'),
  'alarm/workOrders': () => import('../../features/work-order/pages/work-orders-page.tsx'),
  'fault/list': () => import('../../features/fault/pages/faults-page.tsx'),
  'warehouse/manage': () => import('../../features/warehouse/pages/records-page.tsx'),
  'warehouse/stock': () => import('../../features/warehouse/pages/stock-page.tsx'),
  'warehouse/batches': () => import('../../features/product/pages/batches-page.tsx'),
  'warehouse/profiles': () => import('../../features/product/pages/profiles-page.tsx'),
  'asset/remoteControl': () => import('../../features/remote-control/pages/remote-control-page.tsx'),
  'cockpit/index': () => import('../../features/cockpit/pages/cockpit-page.tsx'),
  'report/temperature': () => import('../../features/gsp-report/pages/temperature-report-page.tsx'),
  'compare/index': () => import('../../features/compare/pages/compare-page.tsx'),
  'report/alarm': () => import('../../features/ops-report/pages/alarm-report-page.tsx'),
  'report/online': () => import('../../features/ops-report/pages/online-report-page.tsx'),
  'report/mileage': () => import('../../features/ops-report/pages/mileage-report-page.tsx'),
  'report/schedules': () => import('../../features/report-schedule/pages/schedules-page.tsx'),
  'ledger/verify': () => import('../../features/ledger/pages/verify-page.tsx'),
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
