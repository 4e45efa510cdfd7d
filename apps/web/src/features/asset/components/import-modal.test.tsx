import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { App } from 'antd';
import type { ImportResult } from '@iotc/shared/asset';
import { render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request, type RequestOptions } from '../../../api/client.ts';
import { XLSX_TYPE } from '../api/sheets.ts';
import { assetFieldLabels } from './asset-kinds.ts';
import { ImportErrorTable, ImportModal, ImportOutcome } from './import-modal.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
const requestMock = vi.mocked(request);

let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  requestMock.mockReset();
});

afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

const ERRORS: ImportResult['errors'] = [
  { row: 2, field: 'Plate number', message: 'Code cannot be empty' },
  { row: 4, field: 'Temperature max (°C)', message: 'The lower limit must not be above the upper limit' },
];

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

describe('the import outcome', () => {
  it('lists a refused sheet’s errors by row, field and problem', () => {
    mounted = render(<ImportErrorTable errors={ERRORS} />);
    const table = byTestId(mounted.container, 'import-errors')!;
    expect([...table.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual(['Row', 'Field', 'Problem']);
    expect(cells(table)).toEqual([
      ['2', 'Plate number', 'Code cannot be empty'],
      ['4', 'Temperature max (°C)', 'The lower limit must not be above the upper limit'],
    ]);
  });

  it('names the sheet’s columns for the fields the server reports', () => {
    const errors = [
      { row: 2, field: 'code', message: 'Code cannot be empty' },
      { row: 3, field: 'attrs.zip', message: 'Bad zip' },
      { row: 4, field: 'row', message: 'This code appears twice in the sheet' },
      { row: 5, field: 'somethingElse', message: 'x' },
    ];
    mounted = render(<ImportErrorTable errors={errors} fieldLabels={assetFieldLabels('warehouse')} />);
    expect(cells(mounted.container).map((r) => r[1])).toEqual(['Warehouse code', 'Zip code', '(whole row)', 'somethingElse']);
  });

  it('pages a long error list', () => {
    const many = Array.from({ length: 23 }, (_, i) => ({ row: i + 2, field: 'Name', message: 'Name cannot be empty' }));
    mounted = render(<ImportErrorTable errors={many} />);
    expect(cells(mounted.container)).toHaveLength(10);
    expect(mounted.container.textContent).toContain('Total 23 items');
  });

  it('says nothing was stored when there are errors', () => {
    mounted = render(<ImportOutcome result={{ created: 0, updated: 0, errors: ERRORS }} />);
    const outcome = byTestId(mounted.container, 'import-outcome')!;
    expect(outcome.dataset.outcome).toBe('refused');
    expect(outcome.textContent).toContain('Nothing was imported: 2 problems found');
    expect(byTestId(mounted.container, 'import-errors')).not.toBeNull();
  });

  it('counts what a clean sheet stored and shows new device secrets once', () => {
    mounted = render(
      <App>
        <ImportOutcome result={{ created: 2, updated: 1, errors: [], secrets: [{ deviceId: 'DEV-0001', secret: 's3cr3t-value' }] }} />
      </App>,
    );
    const outcome = byTestId(mounted.container, 'import-outcome')!;
    expect(outcome.dataset.outcome).toBe('stored');
    expect(outcome.textContent).toContain('Import finished: 2 created, 1 updated');
    expect(byTestId(mounted.container, 'import-errors')).toBeNull();
    expect(byTestId(mounted.container, 'import-secrets')!.textContent).toContain('s3cr3t-value');
  });
});

describe('the import dialog', () => {
  it('sends the picked .xlsx file itself and shows the errors the server found', async () => {
    requestMock.mockResolvedValue({ created: 0, updated: 0, errors: ERRORS } satisfies ImportResult);
    mounted = render(
      <App>
        <ImportModal open onClose={() => {}} path="/api/iot/v2/vehicles" what="Vehicles" templateName="vehicles-template.xlsx" />
      </App>,
    );
    await settle();
    const submit = byTestId<HTMLButtonElement>(document.body, 'import-submit')!;
    expect(submit.disabled).toBe(true);

    const file = new File(['PK'], 'vehicles.xlsx', { type: XLSX_TYPE });
    const input = document.body.querySelector<HTMLInputElement>('.asset-import-modal input[type="file"]')!;
    await act(async () => {
      Object.defineProperty(input, 'files', { value: [file], configurable: true });
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await settle();
    await until(() => expect(submit.disabled).toBe(false));
    expect(document.body.querySelector('.asset-import-modal')!.textContent).toContain('vehicles.xlsx');

    await act(async () => submit.click());
    await settle();
    expect(requestMock).toHaveBeenCalledTimes(1);
    const [path, opts] = requestMock.mock.calls[0]! as [string, RequestOptions];
    expect(path).toBe('/api/iot/v2/vehicles/import');
    expect(opts).toMatchObject({ method: 'POST', contentType: XLSX_TYPE });
    expect(opts.body).toBe(file);
    await until(() => expect(cells(byTestId(document.body, 'import-errors')!)).toHaveLength(2));
  }, 30_000);

  it('refuses a file that is no .xlsx without sending it', async () => {
    mounted = render(
      <App>
        <ImportModal open onClose={() => {}} path="/api/iot/v2/devices" what="Devices" templateName="devices-template.xlsx" />
      </App>,
    );
    await settle();
    const input = document.body.querySelector<HTMLInputElement>('.asset-import-modal input[type="file"]')!;
    await act(async () => {
      Object.defineProperty(input, 'files', { value: [new File(['a,b'], 'devices.csv', { type: 'text/csv' })], configurable: true });
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await settle();
    expect(byTestId<HTMLButtonElement>(document.body, 'import-submit')!.disabled).toBe(true);
    await until(() => expect(document.body.textContent).toContain('Only .xlsx files can be imported'));
    expect(requestMock).not.toHaveBeenCalled();
  }, 30_000);
});
