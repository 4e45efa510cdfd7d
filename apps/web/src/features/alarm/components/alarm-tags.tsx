// An alarm's level as a tag in the level's colour, and its status as a tag (active red, cleared
// green, closed grey), for the details and the real-time list.
import { Tag } from 'antd';
import type { AlarmStatus } from '@iotc/shared/alarm';
import { ALARM_STATUS_COLORS, type LevelInfo } from './alarm-model.ts';
import { readableTextOn } from '../../../lib/color.ts';
import { useAlarmTexts } from './use-alarm-texts.ts';

export function LevelTag({ level }: { level: Pick<LevelInfo, 'nameZh' | 'nameEn' | 'color'> }) {
  const texts = useAlarmTexts();
  return (
    <Tag className="alarm-level-tag" data-testid="alarm-level-tag" style={{ background: level.color, borderColor: level.color, color: readableTextOn(level.color) }}>
      {texts.levelName(level)}
    </Tag>
  );
}

export function StatusTag({ status }: { status: AlarmStatus }) {
  const texts = useAlarmTexts();
  const color = ALARM_STATUS_COLORS[status];
  return (
    <Tag className="alarm-status-tag" data-testid="alarm-status-tag" data-status={status} style={{ background: color, borderColor: color, color: '#fff' }}>
      {texts.statusName(status)}
    </Tag>
  );
}
