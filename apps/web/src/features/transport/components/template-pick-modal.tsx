// "New from template": choosing the template whose settings fill the new task's form.
import { useState } from 'react';
import { Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { RemoteSelect } from '../../../components/remote-select.tsx';
import { searchTemplates } from '../api/templates.ts';

export function TemplatePickModal({ open, onClose, onPick }: { open: boolean; onClose: () => void; onPick: (templateId: string) => void }) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<string | undefined>(undefined);
  return (
    <Modal
      open={open}
      title={t('transport.task.pickTemplate')}
      className="tt-pick-template"
      okText={t('transport.task.useTemplate')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !picked, ...{ 'data-testid': 'tt-pick-template-ok' } }}
      onOk={() => picked && onPick(picked)}
      onCancel={onClose}
      afterClose={() => setPicked(undefined)}
      destroyOnHidden
    >
      <Form layout="vertical" onFinish={() => picked && onPick(picked)}>
        <Form.Item label={t('transport.template.name')}>
          <RemoteSelect fetcher={searchTemplates} value={picked} onChange={(v) => setPicked(v)} data-testid="tt-pick-template" placeholder={t('transport.task.pickTemplatePlaceholder')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
