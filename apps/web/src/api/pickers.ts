// The searches behind every device, asset and task picker of the console, and the one label each
// shows: GET /api/iot/v2/devices, /api/iot/v2/<asset resource> and /api/iot/v2/transport-tasks
// with `keyword` (what the user typed, trimmed; left out when empty), the first PICKER_SIZE
// matches. A picker that offers only some of them passes the list's own filters (`extra`, e.g.
// `{ status: 'in_transit' }`) rather than a search of its own. The labels of values a page holds
// only by id (an address, a stored selection) are looked up here too.
import { ASSET_API, ASSET_RESOURCES, type AssetKind, type AssetRow } from '@iotc/shared/asset';
import { DEVICE_API, type DeviceRow } from '@iotc/shared/device';
import { TRANSPORT_API, type TaskRow } from '@iotc/shared/transport';
import type { RemoteOption } from '../components/remote-select.tsx';
import { fetchList, type FilterValues } from '../lib/list-query.ts';
import { request } from './client.ts';

/** The matches a picker offers for one search. */
export const PICKER_SIZE = 20;

/** `Cold room 3 (TH-0042)`; the device id alone when the name is empty or the same. */
export function deviceLabel(d: Pick<DeviceRow, 'name' | 'deviceId'>): string {
  return d.name && d.name !== d.deviceId ? `${d.name} (${d.deviceId})` : d.deviceId;
}

/** `V-007 · Truck 7`; the code alone when the name is empty or the same. */
export function assetLabel(a: Pick<AssetRow, 'code' | 'name'>): string {
  return a.name && a.name !== a.code ? `${a.code} · ${a.name}` : a.code;
}

/** `T-20261127-001 · Vaccines`; the code alone when the task names no goods. */
export function taskLabel(t: Pick<TaskRow, 'code' | 'goodsName'>): string {
  return t.goodsName ? `${t.code} · ${t.goodsName}` : t.code;
}

export function assetPath(kind: AssetKind): string {
  return `${ASSET_API.base}/${ASSET_RESOURCES[kind]}`;
}

function pickerState(search: string, extra: FilterValues) {
  const keyword = search.trim();
  return { page: 1, size: PICKER_SIZE, filters: keyword ? { ...extra, keyword } : extra };
}

/** The devices a search finds, as rows (for a picker that needs more than the label, e.g. the protocol). */
export async function searchDeviceRows(search: string, signal: AbortSignal, extra: FilterValues = {}): Promise<DeviceRow[]> {
  return (await fetchList<DeviceRow>(DEVICE_API.devices, pickerState(search, extra), signal)).rows;
}

export async function searchDevices(search: string, signal: AbortSignal, extra: FilterValues = {}): Promise<RemoteOption[]> {
  return (await searchDeviceRows(search, signal, extra)).map((d) => ({ value: d.id, label: deviceLabel(d) }));
}

/** The assets of one kind a search finds (code or name), as rows. */
export async function searchAssetRows(kind: AssetKind, search: string, signal: AbortSignal, extra: FilterValues = {}): Promise<AssetRow[]> {
  return (await fetchList<AssetRow>(assetPath(kind), pickerState(search, extra), signal)).rows;
}

export async function searchAssets(kind: AssetKind, search: string, signal: AbortSignal, extra: FilterValues = {}): Promise<RemoteOption[]> {
  return (await searchAssetRows(kind, search, signal, extra)).map((a) => ({ value: a.id, label: assetLabel(a) }));
}

/** The transport tasks a search finds (code, goods, customer or place). */
export async function searchTasks(search: string, signal: AbortSignal, extra: FilterValues = {}): Promise<RemoteOption[]> {
  const page = await fetchList<TaskRow>(TRANSPORT_API.tasks, pickerState(search, extra), signal);
  return page.rows.map((t) => ({ value: t.id, label: taskLabel(t) }));
}

/** A device's label by its row id; fails (silently: the caller decides) when it is gone or not the caller's. */
export async function fetchDeviceLabel(id: string, signal?: AbortSignal): Promise<string> {
  return deviceLabel(await request<DeviceRow>(`${DEVICE_API.devices}/${encodeURIComponent(id)}`, { signal, silent: true }));
}

/** A task's label by its row id; fails silently like fetchDeviceLabel. */
export async function fetchTaskLabel(id: string, signal?: AbortSignal): Promise<string> {
  return taskLabel(await request<TaskRow>(`${TRANSPORT_API.tasks}/${encodeURIComponent(id)}`, { signal, silent: true }));
}

/** An asset's label and kind by its id: the id says nothing of the kind, so the kinds are asked in turn; null when none has it. */
export async function fetchAssetLabel(id: string, kinds: readonly AssetKind[], signal?: AbortSignal): Promise<{ label: string; kind: AssetKind } | null> {
  for (const kind of kinds) {
    const a = await request<AssetRow>(`${assetPath(kind)}/${encodeURIComponent(id)}`, { signal, silent: true }).catch(() => null);
    if (a) return { label: assetLabel(a), kind };
    if (signal?.aborted) return null;
  }
  return null;
}
