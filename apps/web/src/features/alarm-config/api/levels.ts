// GET /api/iot/v2/alarm-levels for the levels screen: one page of the levels of the caller's
// organisations (an `orgId` filter narrows to one organisation and its descendants), by priority.
// The whole list the policy rules pick from is the shared `api/alarm-levels.ts`.
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { ALARM_API, type LevelRow } from '@iotc/shared/alarm';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { listQueryOptions, type ListState } from '../../../lib/list-query.ts';

/** A row as shown: `updatedAt` in the user's time zone, `swatch` the id the colour tag is keyed by. */
export interface LevelView extends LevelRow {
  swatch: string;
}

export function toLevelView(r: LevelRow): LevelView {
  return { ...r, swatch: r.id, updatedAt: dayjs(r.updatedAt).format(DATETIME_FORMAT) };
}

export function useLevelList(state: ListState) {
  // Under ALARM_LEVELS_KEY (['list', levels path]): what level and policy changes invalidate.
  return useQuery({
    ...listQueryOptions<LevelRow>(ALARM_API.levels, state),
    select: (page) => ({ ...page, rows: page.rows.map(toLevelView) }),
  });
}
