// The one HTTP client (DESIGN.md, STYLE.md): sets the spec's headers, unwraps the envelope,
// drives the progress bar, reports the first failure of a batch and handles an expired login;
// after a deliberate logout, the calls of the ended session end quietly.
import i18next from 'i18next';
import NProgress from 'nprogress';
import type { Envelope } from '@iotc/shared/envelope';
import { PROGRESS_HIDE_DELAY_MS, REQUEST_TIMEOUT_MS } from '@iotc/shared/constants';
import { clearAuth, getToken, isLoggedOut, onSessionEnd, sessionGeneration } from '../lib/session.ts';
import { currentLanguageHeader } from '../lib/language.ts';
import { withFeedback } from '../lib/feedback.ts';
import { loginPath, navigateTo } from '../lib/navigation.ts';

export class ApiError extends Error {
  /** HTTP status; 0 when no answer arrived (network failure or time-out). */
  readonly status: number;
  readonly errorcode: string | null;
  readonly errormsg: string | null;

  constructor(status: number, errorcode: string | null, errormsg: string | null) {
    super(errormsg ?? errorcode ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.errorcode = errorcode;
    this.errormsg = errormsg;
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** JSON-encoded, except a Blob (a File to import), which is sent as it is. */
  body?: unknown;
  /** Content-Type of a Blob body; the Blob's own type when absent. */
  contentType?: string;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** The caller shows failures itself (login's inline error), so no notification. */
  silent?: boolean;
  /** No re-login dialog on an expired token (logging out of a session that already ended). */
  noAuthDialog?: boolean;
  /** The info call's rule: status 200 with errormsg set shows that message as an error. */
  errormsgAsMessage?: boolean;
  /** Overrides the spec's 20 s time-out (form and JSON calls) for a file download. */
  timeoutMs?: number;
  /** The title of the failure notification instead of the generic server error (the info call's own text). */
  failureTitle?: () => string;
  /** Sends this token instead of the stored one (logout revokes the token it has just forgotten). */
  token?: string;
}

/**
 * nprogress's own markup gives the bar role="bar", which is no ARIA role: an indeterminate
 * progress bar named in the page's language instead (set at each start, the language may change).
 */
function progressTemplate(): string {
  const name = i18next.t('layout.loading').replace(/[<>&"]/g, '');
  return `<div class="bar" role="progressbar" aria-label="${name}"><div class="peg"></div></div>`;
}

// The template is set at each start (below): at import the language's texts may not be in yet.
NProgress.configure({ showSpinner: false, barSelector: '.bar' });

let inFlight = 0;
let batchReported = false;
let hideTimer: ReturnType<typeof setTimeout> | undefined;
let authDialogOpen = false;

// Calls in flight, each with the abort of its own controller: a deliberate logout ends them.
const inFlightAborts = new Set<() => void>();
onSessionEnd(() => {
  for (const abort of [...inFlightAborts]) abort();
});

/** What a call of a session that was ended on purpose throws: nobody is told, nothing is shown. */
function endedQuietly(): ApiError {
  return new ApiError(0, 'LOGGED_OUT', null);
}

function begin(): void {
  if (inFlight === 0) {
    // A batch is the set of requests in flight together; a new one may report again.
    batchReported = false;
    clearTimeout(hideTimer);
    if (!NProgress.isStarted()) NProgress.configure({ template: progressTemplate() });
    NProgress.start();
  }
  inFlight += 1;
}

function end(): void {
  inFlight -= 1;
  if (inFlight === 0) {
    hideTimer = setTimeout(() => {
      // A request answered after a test's page was torn down has no document left to draw on.
      if (typeof document !== 'undefined') NProgress.done();
    }, PROGRESS_HIDE_DELAY_MS);
  }
}

// The browser's time zone, read once per page: making a DateTimeFormat for every request cost
// tens of milliseconds of a console screen's first load (a dozen requests at once).
let zone: string | undefined;
function timezone(): string {
  if (zone === undefined) {
    try {
      zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    } catch {
      zone = 'UTC';
    }
  }
  return zone;
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return !!value && typeof value === 'object' && 'isSuccess' in value;
}

function reportOnce(error: ApiError, title?: () => string): void {
  if (batchReported) return;
  batchReported = true;
  withFeedback(({ notification }) =>
    notification.error({
      title: title ? title() : i18next.t('error.server'),
      description: error.errormsg ?? error.message,
      className: 'server-error-notification',
    }),
  );
}

function sessionExpired(): void {
  clearAuth();
  if (authDialogOpen) return;
  authDialogOpen = true;
  withFeedback(({ modal }) =>
    modal.confirm({
      title: i18next.t('common.prompt'),
      content: i18next.t('error.sessionExpired'),
      okText: i18next.t('common.ok'),
      cancelText: i18next.t('common.cancel'),
      className: 'session-expired-dialog',
      onOk: () => navigateTo(loginPath(window.location.pathname + window.location.search)),
      afterClose: () => {
        authDialogOpen = false;
      },
    }),
  );
}

/** The spec's headers of every call: access_token (when signed in), language and Timezone. */
export function apiHeaders(accept = 'application/json', token = getToken()): Record<string, string> {
  const headers: Record<string, string> = {
    Accept: accept,
    language: currentLanguageHeader(),
    Timezone: timezone(),
  };
  if (token) headers.access_token = token;
  return headers;
}

/** A file answer (an export): the body and the Content-Disposition header naming it. */
export interface FileAnswer {
  blob: Blob;
  disposition: string | null;
}

async function send<T>(path: string, opts: RequestOptions, file = false): Promise<T> {
  const method = opts.method ?? 'GET';
  const headers = apiHeaders(file ? '*/*' : 'application/json', opts.token ?? getToken());
  // The session this call belongs to: when it was ended on purpose, its answer concerns no one.
  const generation = sessionGeneration();
  const ended = () => generation !== sessionGeneration();
  let body: BodyInit | undefined;
  if (method !== 'GET' && opts.body instanceof Blob) {
    headers['Content-Type'] = opts.contentType ?? (opts.body.type || 'application/octet-stream');
    body = opts.body;
  } else if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body ?? {});
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const onCallerAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onCallerAbort);
  inFlightAborts.add(onCallerAbort);

  let response: Response;
  let payload: unknown = null;
  let fileAnswer: FileAnswer | undefined;
  try {
    response = await fetch(buildUrl(path, opts.query), {
      method,
      headers,
      body,
      signal: controller.signal,
      credentials: 'same-origin',
    });
    // A file arrives as itself; a failure still arrives as an envelope.
    const isJson = (response.headers.get('Content-Type') ?? '').includes('json');
    if (file && response.ok && !isJson) {
      fileAnswer = { blob: await response.blob(), disposition: response.headers.get('Content-Disposition') };
    } else {
      payload = await response.json().catch(() => null);
    }
  } catch (cause) {
    // A caller that cancels (TanStack Query on unmount) wants no report.
    if (opts.signal?.aborted) throw cause;
    if (ended()) throw endedQuietly();
    const error = timedOut
      ? new ApiError(0, 'TIMEOUT', i18next.t('error.timeout'))
      : new ApiError(0, 'NETWORK', i18next.t('error.network'));
    console.warn(`[api] ${method} ${path}: ${error.message}`);
    if (!opts.silent) reportOnce(error, opts.failureTitle);
    throw error;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCallerAbort);
    inFlightAborts.delete(onCallerAbort);
  }

  if (fileAnswer) return fileAnswer as T;
  const envelope = isEnvelope(payload) ? payload : null;
  if (response.ok && envelope?.isSuccess === 'Y') {
    if (opts.errormsgAsMessage && envelope.errormsg) {
      const text = envelope.errormsg;
      withFeedback(({ message }) => void message.error(text));
    }
    return envelope.data as T;
  }

  // Started before a deliberate logout, or refused for the token the logout revoked (a poll
  // that fired while logging out): the user ended the session and needs no news of it.
  if (ended() || (response.status === 401 && isLoggedOut())) throw endedQuietly();
  const error = new ApiError(response.status, envelope?.errorcode ?? null, envelope?.errormsg ?? null);
  console.warn(`[api] ${method} ${path}: ${response.status} ${error.errorcode ?? ''} ${error.errormsg ?? ''}`);
  if (response.status === 401 && error.errorcode === 'TOKEN_INVALID') {
    if (!opts.noAuthDialog) sessionExpired();
  } else if (opts.errormsgAsMessage && response.status === 200 && error.errormsg) {
    const text = error.errormsg;
    withFeedback(({ message }) => void message.error(text));
  } else if (!opts.silent) {
    reportOnce(error, opts.failureTitle);
  }
  throw error;
}

/** Calls the API and answers the envelope's data; failures throw an ApiError. */
export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  begin();
  try {
    return await send<T>(path, opts);
  } finally {
    end();
  }
}

/**
 * Downloads a file (an export) with the same headers, progress bar and failure handling as
 * `request`; an answer that is an envelope instead of a file is a failure and throws.
 */
export async function requestFile(path: string, opts: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<FileAnswer> {
  begin();
  try {
    const answer = await send<FileAnswer | null>(path, opts, true);
    // A success envelope where a file was expected: nothing to save.
    if (!answer || !(answer.blob instanceof Blob)) throw new ApiError(200, 'NOT_A_FILE', null);
    return answer;
  } finally {
    end();
  }
}
