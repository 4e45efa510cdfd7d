import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { App } from 'antd';
import type { ImportResult } from '@iotc/shared/asset';
import { render, setEnglish, type Rendered } from '../test/dom.tsx';
import { byTestId, settle } from '../test/form.ts';
import { ImportDialog, type ImportDialogTexts } from './import-dialog.tsx';

let mounted: Rendered | undefined;

beforeEach(setEnglish);

afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

const TEXTS: ImportDialogTexts = {
  template: 'Get template',
  drop: 'Drop a sheet',
  onlyXlsx: 'Sheets only',
  submit: 'Send',
  close: 'Done',
  refused: (count) => `Refused: ${count}`,
  done: (r) => `Stored ${r.created}`,
  row: 'Row',
  field: 'Column',
  message: 'Problem',
  wholeRow: '(all of it)',
};

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Retries `check` until it passes: the machine running the tests may be slow. */
async function until(check: () => void, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > end) throw error;
      await settle(1);
    }
  }
}

function cells(root: ParentNode): string[][] {
  return [...root.querySelectorAll('tbody tr.ant-table-row')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''));
}

function mount(props: { onImport?: (file: File) => Promise<ImportResult>; onTemplate?: () => Promise<unknown> }) {
  mounted = render(
    <App>
      <ImportDialog
        open
        onClose={() => {}}
        title="Import things"
        hint="Fill it in"
        texts={TEXTS}
        onTemplate={props.onTemplate ?? (() => Promise.resolve())}
        onImport={props.onImport ?? (() => Promise.reject(new Error('not sent')))}
        testIdPrefix="x-"
        className="x-import-modal"
        fieldLabels={{ code: 'Thing code' }}
      />
    </App>,
  );
}

async function pick(file: File) {
  const input = document.body.querySelector<HTMLInputElement>('.x-import-modal input[type="file"]')!;
  await act(async () => {
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await settle();
}

describe('the shared import dialog', () => {
  it('sends the picked .xlsx file and lists the rows of a refused sheet', async () => {
    const onImport = vi.fn((_file: File) =>
      Promise.resolve<ImportResult>({
        created: 0,
        updated: 0,
        errors: [
          { row: 2, field: 'code', message: 'Code cannot be empty' },
          { row: 3, field: 'row', message: 'Appears twice' },
          { row: 4, field: 'other', message: 'Bad' },
        ],
      }),
    );
    mount({ onImport });
    await settle();
    const submit = byTestId<HTMLButtonElement>(document.body, 'x-import-submit')!;
    expect(submit.disabled).toBe(true);

    const file = new File(['PK'], 'things.xlsx', { type: XLSX_TYPE });
    await pick(file);
    await until(() => expect(submit.disabled).toBe(false));
    await act(async () => submit.click());
    await settle();

    expect(onImport).toHaveBeenCalledTimes(1);
    expect(onImport.mock.calls[0]![0]).toBe(file);
    await until(() => expect(byTestId(document.body, 'x-import-outcome')!.dataset.outcome).toBe('refused'));
    expect(byTestId(document.body, 'x-import-outcome')!.textContent).toContain('Refused: 3');
    const table = byTestId(document.body, 'x-import-errors')!;
    expect([...table.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual(['Row', 'Column', 'Problem']);
    expect(cells(table)).toEqual([
      ['2', 'Thing code', 'Code cannot be empty'],
      ['3', '(all of it)', 'Appears twice'],
      ['4', 'other', 'Bad'],
    ]);
    expect(byTestId(document.body, 'x-import-close')!.textContent).toBe('Done');
  }, 30_000);

  it('refuses a file that is no .xlsx without sending it', async () => {
    const onImport = vi.fn((_file: File) => Promise.resolve<ImportResult>({ created: 1, updated: 0, errors: [] }));
    mount({ onImport });
    await settle();
    await pick(new File(['a,b'], 'things.csv', { type: 'text/csv' }));
    expect(byTestId<HTMLButtonElement>(document.body, 'x-import-submit')!.disabled).toBe(true);
    await until(() => expect(document.body.textContent).toContain('Sheets only'));
    expect(onImport).not.toHaveBeenCalled();
  }, 30_000);

  it('downloads the empty template with its button', async () => {
    const onTemplate = vi.fn(() => Promise.resolve('things-template.xlsx'));
    mount({ onTemplate });
    await settle();
    const button = byTestId<HTMLButtonElement>(document.body, 'x-import-template')!;
    expect(button.textContent).toContain('Get template');
    await act(async () => button.click());
    await settle();
    expect(onTemplate).toHaveBeenCalledTimes(1);
  }, 30_000);
});
