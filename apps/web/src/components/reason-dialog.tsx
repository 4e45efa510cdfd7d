// A dialog that asks for a reason or a note before an action (resolving, cancelling, approving
// or rejecting): one text area, required or optional, with a length limit. The text goes to
// `onSubmit` trimmed; when it throws (the server refused), the refusal is shown in the dialog,
// which stays open. Kept mounted (forceRender) and stacked above drawers, which open it.
import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Form, Input, Modal, type FormRule } from 'antd';
import { apiErrorText } from '../lib/api-error.ts';
import { useRevalidateOnLanguage } from '../lib/form.ts';
import { useLang } from '../lib/language.ts';
import { DIALOG_OVER_DRAWER_Z } from '../lib/layers.ts';
import './reason-dialog.css';

export interface ReasonDialogTexts {
  title: ReactNode;
  /** The text area's label. */
  label: string;
  placeholder?: string;
  /** The submit and cancel buttons. */
  ok: string;
  cancel: string;
  /** The rule's message when a required text is blank. */
  required?: string;
  /** The rule's message over the limit; without it, the limit only stops the typing. */
  tooLong?: string;
}

export interface ReasonDialogProps {
  open: boolean;
  texts: ReasonDialogTexts;
  /** Whether the text must not be blank. */
  required?: boolean;
  maxLength: number;
  /** Receives the trimmed text; a throw is shown in the dialog as the server's refusal. */
  onSubmit: (text: string) => Promise<void>;
  onClose: () => void;
  afterClose?: () => void;
  /** Test ids `<testId>-submit` and `<testId>-error`. */
  testId: string;
  /** The text area's element id. */
  inputId: string;
  className?: string;
  /** A submit button in the danger colour (rejecting, cancelling). */
  danger?: boolean;
  rows?: number;
  autoFocus?: boolean;
  /** Ctrl+Enter (Cmd+Enter) in the text area submits; a plain Enter stays a new line. */
  submitOnCtrlEnter?: boolean;
  /** Above the text (the record in question, a choice). */
  children?: ReactNode;
}

interface ReasonValues {
  reason?: string;
}

export function ReasonDialog({
  open,
  texts,
  required = false,
  maxLength,
  onSubmit,
  onClose,
  afterClose,
  testId,
  inputId,
  className,
  danger,
  rows = 3,
  autoFocus,
  submitOnCtrlEnter,
  children,
}: ReasonDialogProps) {
  const lang = useLang();
  const [form] = Form.useForm<ReasonValues>();
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  useRevalidateOnLanguage(form);

  useEffect(() => {
    if (open) form.setFieldsValue({ reason: '' });
  }, [open, form]);

  const submit = async () => {
    if (pending) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setFailure(null);
    setPending(true);
    try {
      await onSubmit((values.reason ?? '').trim());
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    } finally {
      setPending(false);
    }
  };

  const rules: FormRule[] = [
    ...(required ? [{ required: true, whitespace: true, message: texts.required }] : []),
    ...(texts.tooLong ? [{ max: maxLength, message: texts.tooLong }] : []),
  ];

  return (
    <Modal
      open={open}
      title={texts.title}
      className={className}
      okText={texts.ok}
      cancelText={texts.cancel}
      okButtonProps={{ danger, ...{ 'data-testid': `${testId}-submit` } }}
      confirmLoading={pending}
      onOk={() => void submit()}
      onCancel={onClose}
      afterClose={() => {
        form.resetFields();
        setFailure(null);
        afterClose?.();
      }}
      forceRender
      zIndex={DIALOG_OVER_DRAWER_Z}
    >
      {children}
      {failure ? <Alert type="error" showIcon title={failure} data-testid={`${testId}-error`} className="reason-dialog-gap" /> : null}
      <Form<ReasonValues> form={form} layout="vertical" onValuesChange={() => failure && setFailure(null)}>
        <Form.Item name="reason" label={texts.label} required={required} rules={rules}>
          <Input.TextArea
            id={inputId}
            rows={rows}
            maxLength={maxLength}
            showCount
            autoFocus={autoFocus}
            placeholder={texts.placeholder}
            onPressEnter={(e) => {
              if (submitOnCtrlEnter && (e.ctrlKey || e.metaKey)) void submit();
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
