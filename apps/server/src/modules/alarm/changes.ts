// The one event of alarm changes: every alarm row that opened or changed (the engine, an
// acknowledgement, a work order, a task that ended) is published here; the live hub and the push
// rules subscribe in the alarm plugin (modules/alarm/plugin.ts), so no publisher knows them.
import type { AlarmRow } from '@iotc/shared/alarm';
import { topic, type Topic } from '../../lib/events.ts';

export type AlarmChanges = Topic<AlarmRow[]>;

export function alarmChanges(): AlarmChanges {
  return topic<AlarmRow[]>();
}
