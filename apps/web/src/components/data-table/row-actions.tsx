// The per-row action column's buttons: text and icon ('ti'), text ('t') or icon only ('i', named
// by a tooltip and aria-label); a button with `confirm` asks before a destructive action.
import { Button, Popconfirm, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../lib/label.ts';
import type { Row, RowButton } from './types.ts';

export interface RowActionsProps<T extends Row> {
  row: T;
  buttons: RowButton<T>[];
}

function ActionButton<T extends Row>({ row, button }: { row: T; button: RowButton<T> }) {
  const { t } = useTranslation();
  const label = useLabel();
  const name = label(button.name);
  const iconOnly = button.showtype === 'i';
  // With a confirmation the click only opens the Popconfirm; the action runs on its OK.
  const onClick = button.confirm ? undefined : () => button.onClick(row);
  let node = (
    <Button
      type="link"
      size="small"
      danger={button.danger}
      disabled={button.disabled?.(row)}
      icon={button.showtype === 't' ? undefined : button.icon}
      aria-label={iconOnly ? name : undefined}
      data-action={button.name}
      data-testid={button.testId}
      className="iotc-row-action"
      onClick={onClick}
    >
      {iconOnly ? null : name}
    </Button>
  );
  if (iconOnly) node = <Tooltip title={name}>{node}</Tooltip>;
  if (button.confirm) {
    node = (
      <Popconfirm
        title={label(button.confirm)}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        okButtonProps={{ danger: button.danger }}
        onConfirm={() => button.onClick(row)}
      >
        {node}
      </Popconfirm>
    );
  }
  return node;
}

export function RowActions<T extends Row>({ row, buttons }: RowActionsProps<T>) {
  return (
    <Space size={0} className="iotc-row-actions">
      {buttons
        .filter((b) => !b.hidden?.(row))
        .map((b) => (
          <ActionButton key={b.name} row={row} button={b} />
        ))}
    </Space>
  );
}
