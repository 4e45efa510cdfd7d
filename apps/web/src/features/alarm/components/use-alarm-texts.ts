// The words of the alarm screens in the user's language: type, status and level names and the
// units of a duration, for the tables, the details, the charts and the map.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AlarmStatus, AlarmType } from '@iotc/shared/alarm';
import type { Lang } from '@iotc/shared/i18n';
import { useLang } from '../../../lib/language.ts';
import { levelName, type DurationWords, type LevelInfo } from './alarm-model.ts';

export interface AlarmTexts {
  lang: Lang;
  typeName: (type: AlarmType) => string;
  statusName: (status: AlarmStatus) => string;
  levelName: (level: Pick<LevelInfo, 'nameZh' | 'nameEn'>) => string;
  duration: DurationWords;
}

export function useAlarmTexts(): AlarmTexts {
  const { t } = useTranslation();
  const lang = useLang();
  return useMemo(
    () => ({
      lang,
      typeName: (type: AlarmType) => t(`alarm.type.${type}`),
      statusName: (status: AlarmStatus) => t(`alarm.status.${status}`),
      levelName: (level: Pick<LevelInfo, 'nameZh' | 'nameEn'>) => levelName(level, lang),
      duration: {
        days: (n: number) => t('alarm.duration.days', { n }),
        hours: (n: number) => t('alarm.duration.hours', { n }),
        minutes: (n: number) => t('alarm.duration.minutes', { n }),
        seconds: (n: number) => t('alarm.duration.seconds', { n }),
      },
    }),
    [t, lang],
  );
}
