// Importing alarm policies from a JSON file this console exported: the file is picked (or
// dropped), read in the browser and its JSON sent as the body, for the caller's organisation or
// one chosen here. The server creates all its policies or, with any error, none; the outcome is
// the count created or the server's reason.
import { useState } from 'react';
import { Alert, App, Button, Form, Modal, Space, Upload, type UploadFile } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { OrgSelect, useOrgChoice } from '../../../components/org-select.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { readFileText, useImportPolicies } from '../api/policy-file.ts';

interface Picked {
  name: string;
  size: number;
  content: unknown;
}

export interface ImportPoliciesModalProps {
  open: boolean;
  onClose: () => void;
  /** Organisation preselected (the list's filter). */
  orgId?: string;
}

export function ImportPoliciesModal({ open, onClose, orgId }: ImportPoliciesModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const orgChoice = useOrgChoice();
  const run = useImportPolicies();
  const [file, setFile] = useState<Picked | null>(null);
  const [target, setTarget] = useState<string | undefined>(orgId);
  const [created, setCreated] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const fileList: UploadFile[] = file ? [{ uid: 'policies', name: file.name, status: 'done', size: file.size }] : [];

  const pick = async (picked: File) => {
    setCreated(null);
    setFailure(null);
    try {
      setFile({ name: picked.name, size: picked.size, content: JSON.parse(await readFileText(picked)) as unknown });
    } catch {
      setFile(null);
      void message.error(t('alarmConfig.import.notJson'));
    }
  };

  const submit = async () => {
    if (!file) return;
    setFailure(null);
    setCreated(null);
    try {
      const result = await run.mutateAsync({ file: file.content, orgId: target });
      setCreated(result.created);
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };

  return (
    <Modal
      open={open}
      title={t('alarmConfig.import.title')}
      className="alarm-import-modal"
      width={600}
      onCancel={onClose}
      afterClose={() => {
        setFile(null);
        setCreated(null);
        setFailure(null);
      }}
      footer={
        <Space>
          <Button onClick={onClose} data-testid="policy-import-close">
            {created !== null ? t('alarmConfig.import.close') : t('common.cancel')}
          </Button>
          <Button type="primary" data-testid="policy-import-submit" disabled={!file} loading={run.isPending} onClick={() => void submit()}>
            {t('alarmConfig.import.submit')}
          </Button>
        </Space>
      }
      destroyOnHidden
    >
      <p className="alarm-muted">{t('alarmConfig.import.hint')}</p>
      {orgChoice ? (
        <Form layout="vertical">
          <Form.Item label={t('alarmConfig.import.org')}>
            <OrgSelect value={target} onChange={setTarget} allowClear placeholder={t('alarmConfig.orgDefault')} />
          </Form.Item>
        </Form>
      ) : null}
      <Upload.Dragger
        accept=".json,application/json"
        maxCount={1}
        multiple={false}
        fileList={fileList}
        data-testid="policy-import-file"
        beforeUpload={(picked) => {
          // The file is read here and its JSON sent by the API client; antd's uploader never sends anything.
          void pick(picked);
          return false;
        }}
        onRemove={() => {
          setFile(null);
          setCreated(null);
          return true;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('alarmConfig.import.drop')}</p>
      </Upload.Dragger>
      <div className="alarm-import-result">
        {failure ? <Alert type="error" showIcon title={failure} data-testid="policy-import-failure" /> : null}
        {created !== null ? <Alert type="success" showIcon title={t('alarmConfig.import.done', { count: created })} data-testid="policy-import-done" /> : null}
      </div>
    </Modal>
  );
}
