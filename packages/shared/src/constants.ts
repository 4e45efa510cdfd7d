// Business constants and limits of the spec's section 9, one place for client and server.
export const PAGE_SIZE_DEFAULT = 10;
export const PAGE_SIZES_MAIN = [10, 50, 100] as const;
export const PAGE_SIZES_SMALL = [10, 20, 30, 50] as const;
export const PAGINATION_LAYOUT = ['total', 'sizes', 'prev', 'pager', 'next', 'jumper'] as const;
export const DESIGN_WIDTH = 1920;
export const MIN_PAGE_WIDTH = 1280;
export const AUTO_WIDTH_MAX_COLUMNS = 10;
export const COLUMN_COOKIE_CHUNK = 4000;
export const COLUMN_COOKIE_MAX_CHUNKS = 10;
export const REQUEST_TIMEOUT_MS = 20_000;
export const CHUNK_TIMEOUT_MS = 120_000;
export const FILTER_RESET_MS = 60;
export const PROGRESS_HIDE_DELAY_MS = 500;
export const LAST_WEEK_DAYS = 7;
export const BATTERY_LOW_PERCENT = 20;
/** 'Login can be kept for a week': the `period` value of the login call, in days. */
export const LOGIN_PERIOD_DAYS = 7;
export const VERIFICATION_CODE_LENGTH = 4;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 20;
export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const DATE_FORMAT = 'YYYY-MM-DD';
/** Failed logins allowed for one account inside the window before 429. */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
/** Default landing after login (spec section 2). */
export const DEFAULT_LANDING = '/view/deviceManage/realTimeMonitoring';
/** Scenario types of the menu (spec section 2). */
export const SCENARIO_TYPES = [101, 102, 103, 104] as const;
export type ScenarioType = (typeof SCENARIO_TYPES)[number];
export const DEFAULT_SCENARIO: ScenarioType = 102;
/** Password retrieval: a four-digit code lives 10 minutes, allows 5 wrong tries, 5 sends an hour, one a minute. */
export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_MAX_SENDS_PER_HOUR = 5;
export const CODE_RESEND_MS = 60_000;
/** A verified code allows setting a new password within 15 minutes. */
export const RESET_TICKET_TTL_MS = 15 * 60_000;
/** A pending external sign-in waits 10 minutes for its binding. */
export const SSO_PENDING_TTL_MS = 10 * 60_000;
/** How long the proof of an external re-authentication may be used to sign (once). */
export const SSO_REAUTH_PROOF_TTL_MS = 5 * 60_000;
/** How far before the start of a re-authentication the provider's auth_time may lie (clock skew). */
export const SSO_REAUTH_SKEW_S = 30;
