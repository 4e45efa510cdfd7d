// Ant Design theme per colour theme: the tokens behind ConfigProvider for default, red and dark.
import { theme, type ThemeConfig } from 'antd';
import { isDarkTheme, THEME_PRIMARY, type ThemeName } from '../lib/theme.ts';

/**
 * Text colours of the light themes that keep WCAG AA's 4.5:1 on white and on antd's light greys
 * (#fafafa, #f5f5f5): antd's defaults put secondary texts (breadcrumb, descriptions, empty
 * states, hints) at 45 % black (#8c8c8c, 3.4:1) and placeholders at 25 % (#bfbfbf, 1.8:1), and
 * danger texts at #ff4d4f (3.3:1). Disabled texts keep antd's 25 %: WCAG exempts them.
 */
const LIGHT_CONTRAST = {
  colorTextTertiary: 'rgba(0, 0, 0, 0.58)',
  colorTextDescription: 'rgba(0, 0, 0, 0.58)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.58)',
  colorError: '#cf1322',
} as const;

export function antdTheme(name: ThemeName): ThemeConfig {
  const primary = THEME_PRIMARY[name];
  const config: ThemeConfig = {
    token: {
      colorPrimary: primary,
      colorLink: primary,
      colorInfo: primary,
      borderRadius: 6,
      ...LIGHT_CONTRAST,
      fontFamily:
        "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Helvetica Neue', Arial, sans-serif",
    },
    components: {
      Layout: { siderBg: '#001529', headerBg: '#ffffff', headerHeight: 56, headerPadding: '0 16px' },
      Menu: { darkItemSelectedBg: primary },
    },
  };
  return isDarkTheme(name) ? darkened(config) : config;
}

/**
 * Text on the dark theme's surfaces (#000 layout, #141414 panels, #1f1f1f popups) at WCAG AA's
 * 4.5:1 at least: antd's dark defaults put tertiary texts and descriptions at 45 % white (4.0:1
 * on #1f1f1f), placeholders at 25 %, danger texts at #dc4446 (4.3:1) and texts in the primary
 * colour at #1668dc (3.5:1). Primary backgrounds keep #1668dc, where white text reads at 5.2:1.
 */
export const DARK_TOKENS = {
  colorTextTertiary: 'rgba(255, 255, 255, 0.6)',
  colorTextDescription: 'rgba(255, 255, 255, 0.6)',
  colorTextPlaceholder: 'rgba(255, 255, 255, 0.5)',
  colorError: '#ff4d4f',
  colorErrorText: '#ff7875',
  colorWarningText: '#ffc53d',
  colorSuccessText: '#73d13d',
  colorLink: '#69b1ff',
  colorLinkHover: '#91caff',
  colorLinkActive: '#4096ff',
  colorPrimaryText: '#69b1ff',
  colorPrimaryTextHover: '#91caff',
  colorPrimaryTextActive: '#4096ff',
} as const;
const DARK_PRIMARY_TEXT = DARK_TOKENS.colorPrimaryText;

/** The dark theme: antd's dark algorithm over the same settings, with dark frame colours. */
function darkened(config: ThemeConfig): ThemeConfig {
  return {
    ...config,
    algorithm: theme.darkAlgorithm,
    token: { ...config.token, ...DARK_TOKENS },
    components: {
      ...config.components,
      Layout: { ...config.components?.Layout, siderBg: '#141414', headerBg: '#141414', bodyBg: '#000000' },
      // The selected entry on the algorithm's primary (#1668dc, white on it 5.2:1), not the seed.
      Menu: { ...config.components?.Menu, darkItemBg: '#141414', darkSubMenuItemBg: '#0a0a0a', darkPopupBg: '#1f1f1f', darkItemSelectedBg: '#1668dc' },
      // The loading text is drawn in the primary colour.
      Spin: { colorPrimary: DARK_PRIMARY_TEXT },
      // Texts drawn in the primary colour: the light blue that reads on the dark surfaces.
      Tabs: { itemSelectedColor: DARK_PRIMARY_TEXT, itemHoverColor: '#91caff', itemActiveColor: '#4096ff' },
      Pagination: { itemActiveColor: DARK_PRIMARY_TEXT, itemActiveColorHover: '#91caff' },
      Breadcrumb: { linkHoverColor: '#91caff' },
    },
  };
}
