// Ant Design theme per colour theme: the tokens behind ConfigProvider for default and red.
import type { ThemeConfig } from 'antd';
import { THEME_PRIMARY, type ThemeName } from '../lib/theme.ts';

export function antdTheme(name: ThemeName): ThemeConfig {
  const primary = THEME_PRIMARY[name];
  return {
    token: {
      colorPrimary: primary,
      colorLink: primary,
      colorInfo: primary,
      borderRadius: 6,
      fontFamily:
        "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Helvetica Neue', Arial, sans-serif",
    },
    components: {
      Layout: { siderBg: '#001529', headerBg: '#ffffff', headerHeight: 56, headerPadding: '0 16px' },
      Menu: { darkItemSelectedBg: primary },
    },
  };
}
