import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API } from '@iotc/shared/auth-api';
import { PLATFORM_API, type OrgNode } from '@iotc/shared/platform';
import type * as client from '../api/client.ts';
import { request } from '../api/client.ts';
import { render, setEnglish, type Rendered } from '../test/dom.tsx';
import { settle, settleUntil } from '../test/form.ts';
import { testUser } from '../test/user.ts';
import { FilterBar } from './filter-bar.tsx';
import { useOrgFilter } from './org-filter.ts';

vi.mock('../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
const requestMock = vi.mocked(request);

const node = (id: string, name: string, children: OrgNode[] = []) => ({ id, name, children }) as unknown as OrgNode;
let mounted: Rendered | undefined;
/** The organisation tree's answer, held until the test gives it. */
let answerTree: (tree: OrgNode[]) => void;

function serve(permissions: string[]) {
  requestMock.mockImplementation((path: string) => {
    if (path === API.info) return Promise.resolve(testUser(permissions, { account: 'admin', name: 'Admin', orgId: 'o1', orgName: 'Cold Chain Co' }));
    if (path === PLATFORM_API.orgTree) return new Promise((resolve) => (answerTree = resolve as (tree: OrgNode[]) => void));
    return Promise.reject(new Error(`unexpected call ${path}`));
  });
}

function Bar() {
  const org = useOrgFilter('transport.filter.org');
  return <FilterBar items={[{ label: 'Keyword', key: 'keyword', type: 'input' }, ...(org ? [org] : [])]} onSearch={() => undefined} />;
}

const orgField = () => document.querySelector<HTMLElement>('[data-testid=filter-orgId]')?.closest<HTMLElement>('.ant-select') ?? null;

beforeEach(async () => {
  await setEnglish();
  sessionStorage.clear();
  requestMock.mockReset();
});

afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

describe('the organisation filter', () => {
  it('holds its place, waiting, while the organisations come, then offers them', async () => {
    serve(['org:read']);
    mounted = render(<Bar />);
    await settleUntil(() => orgField() !== null);
    expect(orgField()!.className).toContain('ant-select-disabled');
    expect(orgField()!.querySelector('.ant-select-arrow-loading, .anticon-loading')).not.toBeNull();
    answerTree([node('o1', 'Cold Chain Co', [node('o2', 'Shanghai depot')])]);
    await settleUntil(() => !orgField()!.className.includes('ant-select-disabled'));
    expect(orgField()!.querySelector('.anticon-loading')).toBeNull();
  });

  it('leaves when there is only one organisation', async () => {
    serve(['org:read']);
    mounted = render(<Bar />);
    await settleUntil(() => orgField() !== null);
    answerTree([node('o1', 'Cold Chain Co')]);
    await settleUntil(() => orgField() === null);
    expect(document.querySelector('[data-testid=filter-keyword]')).not.toBeNull();
  });

  it('never shows for a user who may not read organisations', async () => {
    serve([]);
    mounted = render(<Bar />);
    await settleUntil(() => document.querySelector('[data-testid=filter-keyword]') !== null);
    await settleUntil(() => requestMock.mock.calls.some(([path]) => path === API.info));
    // The answer read and drawn: the user is known, and still no field and no call.
    await settle();
    expect(orgField()).toBeNull();
    expect(requestMock.mock.calls.some(([path]) => path === PLATFORM_API.orgTree)).toBe(false);
  });
});
