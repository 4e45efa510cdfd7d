// DataTable's toolbar: the top buttons, a "more" group that folds away (state 1 collapsed,
// 2 expanded, as the spec numbers it) and the entry to the custom-column dialog.
import { useState, type ReactNode } from 'react';
import { Button, Space, Tooltip } from 'antd';
import { DownOutlined, SettingOutlined, UpOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../lib/label.ts';
import type { TopButton } from './types.ts';

export type MoreState = 1 | 2;

export interface TableToolbarProps {
  buttons?: TopButton[];
  more?: TopButton[];
  /** Shows the custom-column button when given. */
  onOpenSettings?: () => void;
  /** Extra content at the right end, before the settings button. */
  extra?: ReactNode;
}

function ToolbarButton({ button }: { button: TopButton }) {
  const label = useLabel();
  return (
    <Button
      icon={button.icon}
      danger={button.danger}
      disabled={button.disabled}
      type={button.primary ? 'primary' : 'default'}
      data-action={button.name}
      data-testid={button.testId}
      onClick={button.onClick}
    >
      {label(button.name)}
    </Button>
  );
}

export function TableToolbar({ buttons = [], more = [], onOpenSettings, extra }: TableToolbarProps) {
  const { t } = useTranslation();
  const [moreState, setMoreState] = useState<MoreState>(1);
  const expanded = moreState === 2;
  return (
    <div className="iotc-table-toolbar" data-testid="toolbar" data-more-state={moreState}>
      <Space wrap size={8} className="iotc-table-toolbar-buttons">
        {buttons.map((b) => (
          <ToolbarButton key={b.name} button={b} />
        ))}
        {expanded ? more.map((b) => <ToolbarButton key={b.name} button={b} />) : null}
        {more.length > 0 ? (
          <Button
            type="link"
            data-testid="more-toggle"
            data-more-state={moreState}
            aria-expanded={expanded}
            icon={expanded ? <UpOutlined /> : <DownOutlined />}
            iconPlacement="end"
            onClick={() => setMoreState(expanded ? 1 : 2)}
          >
            {expanded ? t('table.collapse') : t('table.more')}
          </Button>
        ) : null}
      </Space>
      <Space size={8}>
        {extra}
        {onOpenSettings ? (
          <Tooltip title={t('table.customColumns')}>
            <Button icon={<SettingOutlined />} aria-label={t('table.customColumns')} data-testid="column-settings-open" onClick={onOpenSettings} />
          </Tooltip>
        ) : null}
      </Space>
    </div>
  );
}
