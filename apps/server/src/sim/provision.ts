// Gets the simulator's devices and their secrets through the real API, as an operator would:
// sign in, list the organisation's devices, register the missing ones and renew the secrets of
// the others (a secret is shown only when made, so an existing device needs a new one). JT/T 808
// terminals need no secret: their devices are registered with protocol jt808 and left as they are.
import { API } from '@iotc/shared/auth';
import { DEVICE_API, type DeviceRow, type DeviceWithSecret } from '@iotc/shared/device';
import type { Envelope, Page } from '@iotc/shared/envelope';
import { MAX_PAGE_SIZE } from '@iotc/shared/list';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
  ) {
    super(message);
  }
}

/** One API call; answers the envelope's data or throws ApiError with the server's message. */
async function call<T>(baseUrl: string, method: 'GET' | 'POST', path: string, opts: { token?: string; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = { language: 'en-US' };
  if (opts.token) headers['access_token'] = opts.token;
  // No content type without a body: the server refuses an empty JSON body.
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const url = new URL(path, baseUrl);
  const res = await fetch(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) }).catch((err: Error) => {
    // fetch says only "fetch failed"; the cause says why (refused, unknown host...).
    throw new Error(`cannot reach ${url.origin}: ${(err.cause as Error | undefined)?.message ?? err.message}`);
  });
  const envelope = (await res.json().catch(() => null)) as Envelope<T> | null;
  if (!envelope) throw new ApiError(`${method} ${path}: HTTP ${res.status}, not an API answer`, res.status, null);
  if (!res.ok || envelope.isSuccess !== 'Y') {
    throw new ApiError(`${method} ${path}: ${envelope.errormsg ?? envelope.errorcode ?? `HTTP ${res.status}`}`, res.status, envelope.errorcode);
  }
  return envelope.data as T;
}

/** Signs in; answers the session token for the `access_token` header. */
export async function signIn(baseUrl: string, account: string, password: string): Promise<string> {
  const data = await call<{ token: string }>(baseUrl, 'POST', API.login, { body: { account, password } });
  return data.token;
}

/** Every device of the caller's organisation tree whose id or name contains `keyword`. */
export async function listDevices(baseUrl: string, token: string, keyword: string): Promise<DeviceRow[]> {
  const rows: DeviceRow[] = [];
  for (let page = 1; ; page++) {
    const query = new URLSearchParams({ keyword, page: String(page), size: String(MAX_PAGE_SIZE) });
    const data = await call<Page<DeviceRow>>(baseUrl, 'GET', `${DEVICE_API.devices}?${query}`, { token });
    rows.push(...data.rows);
    if (data.rows.length === 0 || rows.length >= data.total) return rows;
  }
}

/** Runs `fn` over the items with at most `limit` calls at a time; answers in the items' order. */
async function inParallel<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export interface ProvisionResult {
  /** The devices in the order asked, each with a secret that works now. */
  devices: { deviceId: string; secret: string }[];
  created: number;
  renewed: number;
}

/**
 * Makes sure the devices exist in the caller's organisation and answers a working secret for
 * each: registers the missing ones, renews the secret of the existing ones; `concurrency`
 * requests at a time (default 20).
 */
export async function provisionDevices(opts: {
  baseUrl: string;
  token: string;
  /** Ids and names of the devices; the keyword finds the existing ones (the common id prefix). */
  devices: readonly { deviceId: string; name: string }[];
  keyword: string;
  concurrency?: number;
}): Promise<ProvisionResult> {
  const existing = new Map((await listDevices(opts.baseUrl, opts.token, opts.keyword)).map((row) => [row.deviceId, row.id]));
  let created = 0;
  let renewed = 0;
  const devices = await inParallel(opts.devices, opts.concurrency ?? 20, async ({ deviceId, name }) => {
    const id = existing.get(deviceId);
    const answer = id
      ? await call<DeviceWithSecret>(opts.baseUrl, 'POST', `${DEVICE_API.devices}/${id}/reset-secret`, { token: opts.token })
      : await call<DeviceWithSecret>(opts.baseUrl, 'POST', DEVICE_API.devices, { token: opts.token, body: { deviceId, name } });
    if (id) renewed++;
    else created++;
    return { deviceId, secret: answer.secret };
  });
  return { devices, created, renewed };
}

/**
 * Makes sure JT/T 808 devices (protocol jt808, the phone numbers as device ids) exist in the
 * caller's organisation. They need no secret: a terminal registers over TCP for its
 * authentication code. Existing devices are left as they are.
 */
export async function provisionTerminals(opts: {
  baseUrl: string;
  token: string;
  devices: readonly { deviceId: string; name: string }[];
  keyword: string;
  concurrency?: number;
}): Promise<{ created: number; existing: number; notJt808: string[] }> {
  const rows = new Map((await listDevices(opts.baseUrl, opts.token, opts.keyword)).map((row) => [row.deviceId, row]));
  const missing = opts.devices.filter((d) => !rows.has(d.deviceId));
  await inParallel(missing, opts.concurrency ?? 20, ({ deviceId, name }) =>
    call<DeviceWithSecret>(opts.baseUrl, 'POST', DEVICE_API.devices, { token: opts.token, body: { deviceId, name, protocol: 'jt808' } }),
  );
  // A device of another protocol under one of the numbers: its terminal's registration is refused.
  const notJt808 = opts.devices.filter((d) => rows.has(d.deviceId) && rows.get(d.deviceId)!.protocol !== 'jt808').map((d) => d.deviceId);
  return { created: missing.length, existing: opts.devices.length - missing.length, notJt808 };
}
