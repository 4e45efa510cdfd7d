import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { App } from 'antd';
import { ApiError } from '../api/client.ts';
import { render, setEnglish, type Rendered } from '../test/dom.tsx';
import { byTestId, settle, settleUntil } from '../test/form.ts';
import { ReasonDialog, type ReasonDialogProps, type ReasonDialogTexts } from './reason-dialog.tsx';

let mounted: Rendered | undefined;

beforeEach(setEnglish);

afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

const TEXTS: ReasonDialogTexts = {
  title: 'Reject the thing',
  label: 'Reason',
  ok: 'Reject',
  cancel: 'Back',
  required: 'A reason is needed',
  tooLong: 'At most 20 characters',
};

function mount(props: Partial<ReasonDialogProps> = {}) {
  mounted = render(
    <App>
      <ReasonDialog open texts={TEXTS} required maxLength={20} onSubmit={async () => {}} onClose={() => {}} testId="rd" inputId="rd-reason" {...props} />
    </App>,
  );
}

function typeArea(text: string) {
  const area = document.getElementById('rd-reason') as HTMLTextAreaElement;
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
  act(() => {
    setValue.call(area, text);
    area.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function submit() {
  await act(async () => byTestId(document, 'rd-submit')!.click());
  await settle(10);
}

describe('ReasonDialog', () => {
  it('a required reason blocks the submit and shows the rule message', async () => {
    const onSubmit = vi.fn(async () => {});
    mount({ onSubmit });
    await settle();
    expect(document.body.textContent).toContain('Reject the thing');
    await submit();
    expect(document.body.textContent).toContain('A reason is needed');
    typeArea('   ');
    await submit();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits the text trimmed', async () => {
    const onSubmit = vi.fn(async (_text: string) => {});
    mount({ onSubmit });
    await settle();
    typeArea('  not at night  ');
    await submit();
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledWith('not at night');
  });

  it('an optional text may stay blank', async () => {
    const onSubmit = vi.fn(async (_text: string) => {});
    mount({ onSubmit, required: false });
    await settle();
    await submit();
    expect(onSubmit).toHaveBeenCalledWith('');
  });

  it('keeps a refusal in the open dialog, and clears it on typing', async () => {
    const onClose = vi.fn();
    const onSubmit = vi.fn(async () => {
      throw new ApiError(409, null, 'Already reviewed');
    });
    mount({ onSubmit, onClose });
    await settle();
    typeArea('late');
    await submit();
    await settleUntil(() => !!byTestId(document, 'rd-error'));
    expect(byTestId(document, 'rd-error')!.textContent).toContain('Already reviewed');
    expect(onClose).not.toHaveBeenCalled();
    expect(byTestId(document, 'rd-submit')).not.toBeNull();
    typeArea('later');
    await settle();
    expect(byTestId(document, 'rd-error')).toBeNull();
  });

  it('submits on Ctrl+Enter only when asked to', async () => {
    const onSubmit = vi.fn(async (_text: string) => {});
    mount({ onSubmit, submitOnCtrlEnter: true });
    await settle();
    typeArea('done');
    const area = document.getElementById('rd-reason') as HTMLTextAreaElement;
    await act(async () => {
      area.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', keyCode: 13, bubbles: true }));
    });
    await settle(10);
    expect(onSubmit).not.toHaveBeenCalled();
    await act(async () => {
      area.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', keyCode: 13, ctrlKey: true, bubbles: true }));
    });
    await settle(10);
    expect(onSubmit).toHaveBeenCalledWith('done');
  });
});
