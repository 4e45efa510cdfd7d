// GET /api/iot/v2/jt808-models for the terminal models screen: one page of the item mappings of
// the caller's organisations, by model.
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { JT808_MODEL_API, type ModelRow } from '@iotc/shared/jt808-models';
import { listQueryOptions, type ListState } from '../../../lib/list-query.ts';

/** What list and mapping changes invalidate. */
export const MODELS_KEY = ['list', JT808_MODEL_API] as const;

/** A row as shown: `updatedAt` in the user's time zone, `itemCount` the number of mapped items. */
export interface ModelView extends ModelRow {
  itemCount: number;
}

export function useModelList(state: ListState) {
  return useQuery({
    ...listQueryOptions<ModelRow>(JT808_MODEL_API, state),
    select: (page) => ({ ...page, rows: page.rows.map((r): ModelView => ({ ...r, itemCount: r.items.length, updatedAt: dayjs(r.updatedAt).format(DATETIME_FORMAT) })) }),
  });
}
