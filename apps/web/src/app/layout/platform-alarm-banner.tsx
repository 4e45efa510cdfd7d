// The platform's active alarms (a database that cannot write, ...) across the top of every
// screen, for platform administrators only: what happened, since when, and what to do, in the
// interface language (each an antd alert, announced by screen readers). It goes away by itself
// once the server says the condition has ended.
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useInfo } from '../../api/info.ts';
import { usePlatformAlarms } from '../../api/platform-alarms.ts';
import { currentLang } from '../../lib/language.ts';

export function PlatformAlarmBanner() {
  const { t } = useTranslation();
  const { data: user } = useInfo();
  const { data: alarms } = usePlatformAlarms(!!user?.isPlatformAdmin);
  const active = (alarms ?? []).filter((a) => a.status === 'active');
  if (!user?.isPlatformAdmin || active.length === 0) return null;
  const zh = currentLang() === 'zh';
  return (
    <section className="platform-alarm-banner" aria-label={t('layout.platformAlarm')} data-testid="platform-alarm-banner">
      {active.map((a) => (
        <Alert
          key={a.code}
          type="error"
          showIcon
          banner
          title={zh ? a.titleZh : a.titleEn}
          description={
            <>
              {zh ? a.bodyZh : a.bodyEn} {t('layout.platformAlarmSince', { time: new Date(a.startedAt).toLocaleString(zh ? 'zh-CN' : 'en-GB') })}
            </>
          }
        />
      ))}
    </section>
  );
}
