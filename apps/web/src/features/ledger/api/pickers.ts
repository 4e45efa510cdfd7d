// The searches behind the scope pickers of the verify screen (tasks and devices: the console's
// shared searches, api/pickers.ts; batch numbers of approved warehouse records: only approved
// ones are logged) and the label of a value already in the address. Batches come from the records
// list (its keyword matches goods or batch number), one option per batch number.
import { useQuery } from '@tanstack/react-query';
import { WAREHOUSE_API, type RecordRow } from '@iotc/shared/warehouse';
import { request } from '../../../api/client.ts';
import { fetchDeviceLabel, fetchTaskLabel, PICKER_SIZE, searchDevices, searchTasks } from '../../../api/pickers.ts';
import type { RemoteOption } from '../../../components/remote-select.tsx';
import { fetchList } from '../../../lib/list-query.ts';

export type PickerKind = 'task' | 'device' | 'warehouse';

/** Records read to collect batch numbers (several records share one batch). */
const BATCH_ROWS = 100;
/** Goods names a batch option shows. */
const BATCH_GOODS = 3;

const recordLabel = (r: Pick<RecordRow, 'goodsName' | 'batchNo' | 'warehouseName' | 'time'>) => `${r.goodsName} · ${r.batchNo} · ${r.warehouseName} · ${r.time.slice(0, 10)}`;

const filters = (search: string, extra: Record<string, string> = {}) => ({ ...(search.trim() ? { keyword: search.trim() } : {}), ...extra });

/** The batch numbers of the approved records the search matches, newest first, with their goods. */
export function batchOptions(rows: readonly Pick<RecordRow, 'batchNo' | 'goodsName'>[]): RemoteOption[] {
  const goods = new Map<string, string[]>();
  for (const r of rows) {
    const batch = r.batchNo.trim();
    if (!batch) continue;
    const names = goods.get(batch) ?? [];
    if (!names.includes(r.goodsName) && names.length < BATCH_GOODS) names.push(r.goodsName);
    goods.set(batch, names);
  }
  return [...goods].slice(0, PICKER_SIZE).map(([batch, names]) => ({ value: batch, label: `${batch} · ${names.join(', ')}` }));
}

export async function searchBatches(search: string, signal: AbortSignal): Promise<RemoteOption[]> {
  const page = await fetchList<RecordRow>(WAREHOUSE_API.records, { page: 1, size: BATCH_ROWS, filters: filters(search, { auditStatus: 'approved' }) }, signal);
  return batchOptions(page.rows);
}

export const PICKER_SEARCH: Record<PickerKind, (search: string, signal: AbortSignal) => Promise<RemoteOption[]>> = {
  task: searchTasks,
  device: searchDevices,
  warehouse: searchBatches,
};

async function labelOf(kind: PickerKind, id: string, signal: AbortSignal): Promise<string> {
  if (kind === 'task') return fetchTaskLabel(id, signal);
  if (kind === 'device') return fetchDeviceLabel(id, signal);
  return recordLabel(await request<RecordRow>(WAREHOUSE_API.record(id), { signal, silent: true }));
}

/** The label of the id an address names (a reload, a shared address; for the warehouse a single record), so the picker shows it. */
export function usePickedLabel(kind: PickerKind, id: string | undefined) {
  return useQuery({
    queryKey: ['ledger', 'picked', kind, id] as const,
    queryFn: ({ signal }) => labelOf(kind, id!, signal),
    enabled: !!id,
    staleTime: 60_000,
    retry: false,
  });
}
