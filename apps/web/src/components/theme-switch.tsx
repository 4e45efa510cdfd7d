// Default / red / dark theme switch for the console header.
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { setTheme, THEME_PRIMARY, useThemeName, type ThemeName } from '../lib/theme.ts';

function Swatch({ theme }: { theme: ThemeName }) {
  return <span className="theme-swatch" style={{ background: THEME_PRIMARY[theme] }} aria-hidden />;
}

export function ThemeSwitch({ size = 'middle' }: { size?: 'small' | 'middle' | 'large' }) {
  const { t } = useTranslation();
  const theme = useThemeName();
  return (
    <Segmented<ThemeName>
      data-testid="theme-switch"
      aria-label={t('layout.theme')}
      size={size}
      value={theme}
      onChange={setTheme}
      options={[
        {
          value: 'default-theme',
          label: (
            <span data-testid="theme-default">
              <Swatch theme="default-theme" />
              {t('theme.default')}
            </span>
          ),
        },
        {
          value: 'red-theme',
          label: (
            <span data-testid="theme-red">
              <Swatch theme="red-theme" />
              {t('theme.red')}
            </span>
          ),
        },
        {
          value: 'dark-theme',
          label: (
            <span data-testid="theme-dark">
              <span className="theme-swatch theme-swatch--dark" aria-hidden />
              {t('theme.dark')}
            </span>
          ),
        },
      ]}
    />
  );
}
