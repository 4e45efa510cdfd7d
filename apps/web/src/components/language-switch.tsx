// Chinese / English switch, used on the login page and in the console header.
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Lang } from '@iotc/shared/i18n';
import { changeLang, useLang } from '../lib/language.ts';

export function LanguageSwitch({ size = 'middle' }: { size?: 'small' | 'middle' | 'large' }) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <Segmented<Lang>
      data-testid="lang-switch"
      aria-label={t('lang.label')}
      size={size}
      value={lang}
      onChange={changeLang}
      options={[
        { value: 'zh', label: <span data-testid="lang-zh">{t('lang.zh')}</span> },
        { value: 'en', label: <span data-testid="lang-en">{t('lang.en')}</span> },
      ]}
    />
  );
}
