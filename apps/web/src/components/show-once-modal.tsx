// A secret shown exactly once (a device's secret, a user's initial password), with a copy
// button: the server keeps only its hash, so closing the dialog is the last chance to read it.
// Closing takes a deliberate click, never a stray one on the mask or Esc, and the secret leaves
// the page with the dialog, not hidden in it.
import type { ReactNode } from 'react';
import { App, Alert, Button, Modal, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { copyText } from '../lib/clipboard.ts';
import './show-once-modal.css';

export interface ShowOnceTexts {
  title: string;
  /** Whose secret it is, above it. */
  intro: string;
  copy: string;
  copied: string;
  copyFailed: string;
  done: string;
  /** The warning's title and text under the secret. */
  once: string;
  hint: string;
}

export interface ShowOnceModalProps {
  /** The secret; null while there is none to show. */
  secret: string | null;
  open: boolean;
  onClose: () => void;
  afterClose?: () => void;
  texts: ShowOnceTexts;
  /** Test ids: `<testId>` for the body, `-value`, `-copy`, `-warning`, `-done`. */
  testId: string;
  className?: string;
  /** Without a close button in the corner: only the done button closes it. */
  doneOnly?: boolean;
  /** Under the warning. */
  children?: ReactNode;
}

export function ShowOnceModal({ secret, open, onClose, afterClose, texts, testId, className, doneOnly, children }: ShowOnceModalProps) {
  const { message } = App.useApp();
  const copy = async () => {
    if (secret === null) return;
    if (await copyText(secret)) void message.success(texts.copied);
    else void message.error(texts.copyFailed);
  };
  return (
    <Modal
      open={open}
      title={texts.title}
      className={className}
      mask={{ closable: false }}
      keyboard={false}
      closable={!doneOnly}
      destroyOnHidden
      onCancel={onClose}
      afterClose={afterClose}
      footer={
        <Button type="primary" data-testid={`${testId}-done`} onClick={onClose}>
          {texts.done}
        </Button>
      }
    >
      {secret !== null ? (
        <div data-testid={testId} className="show-once">
          <p>{texts.intro}</p>
          <div className="show-once-row">
            <Typography.Text code className="show-once-value" data-testid={`${testId}-value`}>
              {secret}
            </Typography.Text>
            <Button icon={<CopyOutlined />} data-testid={`${testId}-copy`} onClick={() => void copy()}>
              {texts.copy}
            </Button>
          </div>
          <Alert type="warning" showIcon title={texts.once} description={texts.hint} data-testid={`${testId}-warning`} />
          {children}
        </div>
      ) : null}
    </Modal>
  );
}
