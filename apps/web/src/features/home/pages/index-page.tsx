// /view/home, the Index screen: theme selection (default, red, dark) and the user's menu entries.
import { Button, Card, Col, Empty, Flex, Row, Skeleton, Tag, Typography } from 'antd';
import { CheckCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { MenuItem } from '@iotc/shared/auth';
import { useMenu } from '../../../api/load-menu.ts';
import { useInfo } from '../../../api/info.ts';
import { MenuIcon } from '../../../components/menu-icon.tsx';
import { menuLeaves, openMenuItem } from '../../../lib/menu.ts';
import { isDarkTheme, setTheme, THEME_PRIMARY, THEMES, useThemeName, type ThemeName } from '../../../lib/theme.ts';

const THEME_LABEL = { 'default-theme': 'theme.default', 'red-theme': 'theme.red', 'dark-theme': 'theme.dark' } as const;

function ThemeOption({ theme, active }: { theme: ThemeName; active: boolean }) {
  const { t } = useTranslation();
  const primary = THEME_PRIMARY[theme];
  return (
    <Card
      hoverable
      size="small"
      className="index-theme-option"
      data-testid={`index-theme-${theme}`}
      aria-pressed={active}
      style={{ borderColor: active ? primary : undefined, borderWidth: active ? 2 : 1 }}
      onClick={() => setTheme(theme)}
    >
      <div className={isDarkTheme(theme) ? 'index-theme-preview index-theme-preview--dark' : 'index-theme-preview'}>
        <div className="index-theme-preview-nav" />
        <div className="index-theme-preview-body">
          <div className="index-theme-preview-bar" style={{ background: primary, width: '60%' }} />
          <div className="index-theme-preview-bar" style={{ width: '85%' }} />
          <div className="index-theme-preview-bar" style={{ width: '40%' }} />
        </div>
      </div>
      <Flex justify="space-between" align="center" style={{ marginTop: 10 }}>
        <Typography.Text strong>{t(THEME_LABEL[theme])}</Typography.Text>
        {active && (
          <Tag color={primary} icon={<CheckCircleFilled />} style={{ marginInlineEnd: 0 }}>
            {t('index.current')}
          </Tag>
        )}
      </Flex>
    </Card>
  );
}

function EntryCard({ group, onOpen }: { group: MenuItem; onOpen: (item: MenuItem) => void }) {
  const leaves = menuLeaves([group]);
  return (
    <Card
      className="index-entry-card"
      data-testid="index-entry"
      title={
        <Flex gap={8} align="center">
          <MenuIcon name={group.icon} />
          <span>{group.name}</span>
        </Flex>
      }
    >
      <div className="index-entry-links">
        {leaves.map((leaf) => (
          <Button key={leaf.id} type="link" style={{ paddingInline: 0 }} onClick={() => onOpen(leaf)}>
            {leaf.name}
          </Button>
        ))}
      </div>
    </Card>
  );
}

export default function IndexPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const theme = useThemeName();
  const { data: user } = useInfo();
  const { data: menu = [], isPending } = useMenu();
  const open = (item: MenuItem) => openMenuItem(item, navigate);

  return (
    <Flex vertical gap={24} data-testid="index-page">
      <Card>
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="screen-title">
          {user?.name ? t('index.welcome', { name: user.name }) : t('index.welcomeAnonymous')}
        </Typography.Title>
        {user?.orgName && <Typography.Text type="secondary">{user.orgName}</Typography.Text>}
      </Card>

      <Card title={t('index.theme')} extra={<Typography.Text type="secondary">{t('index.themeHint')}</Typography.Text>}>
        <Flex gap={16}>
          {THEMES.map((name) => (
            <ThemeOption key={name} theme={name} active={name === theme} />
          ))}
        </Flex>
      </Card>

      <Card title={t('index.menu')}>
        {isPending ? (
          <Skeleton active />
        ) : menu.length === 0 ? (
          <Empty description={t('index.menuEmpty')} />
        ) : (
          <Row gutter={[16, 16]}>
            {menu.map((group) => (
              <Col key={group.id} span={8}>
                <EntryCard group={group} onOpen={open} />
              </Col>
            ))}
          </Row>
        )}
      </Card>
    </Flex>
  );
}
