// The 'custom columns' dialog (spec section 2): an on/off switch per column; OK saves the
// preference in cookies, and a preference too large for the cookies is refused with a message.
import { useState } from 'react';
import { Alert, Modal, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../lib/label.ts';
import { ColumnSettingsTooLargeError, savePreference, type CookieJar } from './column-cookie.ts';
import type { ColumnPreference, Row, TableColumn } from './types.ts';

export interface ColumnSettingsProps<T extends Row> {
  open: boolean;
  tableId: string;
  /** The declared columns with the current preference applied. */
  columns: TableColumn<T>[];
  jar: CookieJar;
  onSaved: (pref: ColumnPreference) => void;
  onClose: () => void;
}

function Body<T extends Row>({ tableId, columns, jar, onSaved, onClose }: Omit<ColumnSettingsProps<T>, 'open'>) {
  const { t } = useTranslation();
  const label = useLabel();
  // A draft, so Cancel leaves the table as it was.
  const [hidden, setHidden] = useState<Record<string, boolean>>(() => Object.fromEntries(columns.map((c) => [c.value, !!c.hidden])));
  const [tooLarge, setTooLarge] = useState(false);

  const save = () => {
    const pref = columns.map((c) => ({ key: c.value, hidden: !!hidden[c.value] }));
    try {
      savePreference(jar, tableId, pref);
    } catch (error) {
      if (error instanceof ColumnSettingsTooLargeError) {
        setTooLarge(true);
        return;
      }
      throw error;
    }
    onSaved(pref);
    onClose();
  };

  return (
    <Modal
      open
      title={t('table.customColumns')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      onOk={save}
      onCancel={onClose}
      destroyOnHidden
      width={480}
      okButtonProps={{ 'data-testid': 'column-settings-ok' }}
      classNames={{ body: 'iotc-column-settings' }}
    >
      <div data-testid="column-settings">
        {tooLarge ? (
          <Alert type="error" showIcon title={t('table.columnSettingsTooLarge')} className="iotc-column-settings-error" data-testid="column-settings-error" />
        ) : null}
        <ul className="iotc-column-settings-list">
          {columns.map((c) => {
            const name = label(c.key);
            return (
              <li key={c.value} className="iotc-column-settings-item">
                <span className="iotc-column-settings-name">{name}</span>
                <Switch
                  size="small"
                  checked={!hidden[c.value]}
                  aria-label={name}
                  data-testid={`column-switch-${c.value}`}
                  onChange={(on) => {
                    setTooLarge(false);
                    setHidden((h) => ({ ...h, [c.value]: !on }));
                  }}
                />
              </li>
            );
          })}
        </ul>
      </div>
    </Modal>
  );
}

export function ColumnSettings<T extends Row>({ open, ...rest }: ColumnSettingsProps<T>) {
  // Mounted only while open, so each opening starts from the table's current columns.
  return open ? <Body {...rest} /> : null;
}
