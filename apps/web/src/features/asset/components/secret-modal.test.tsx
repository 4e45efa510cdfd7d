import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App, ConfigProvider } from 'antd';
import { MemoryRouter } from 'react-router-dom';
import { API, type UserInfo } from '@iotc/shared/auth';
import { DEVICE_API, type DeviceRow, type DeviceWithSecret } from '@iotc/shared/device';
import type { Page } from '@iotc/shared/envelope';
import { PLATFORM_API } from '@iotc/shared/platform';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, errorOf, settle, type } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request, type RequestOptions } from '../../../api/client.ts';
import { copyText } from '../../../lib/clipboard.ts';
import { clearAuth, setUserinfo } from '../../../lib/session.ts';
import DevicesPage from '../pages/devices-page.tsx';
import { SecretModal } from './secret-modal.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
vi.mock('../../../lib/clipboard.ts', () => ({ copyText: vi.fn(async () => true) }));
const requestMock = vi.mocked(request);

const SECRET = 'k9Jx2QvL8mNp4RsT6uVw';

const ADMIN: UserInfo = {
  id: 'u1',
  account: 'admin',
  name: 'Admin',
  orgId: 'o1',
  orgName: 'Platform',
  email: null,
  phone: null,
  roles: [],
  permissions: [],
  isPlatformAdmin: true,
  mustChangePassword: false,
};

let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  requestMock.mockReset();
  vi.mocked(copyText).mockClear();
});

afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  clearAuth();
  document.body.innerHTML = '';
});

describe('the device secret dialog', () => {
  it('shows the secret with a copy button and the once-only warning', async () => {
    mounted = render(
      <App>
        <SecretModal data={{ deviceId: 'DEV-0001', secret: SECRET }} open onClose={() => {}} />
      </App>,
    );
    await settle();
    expect(byTestId(document.body, 'device-secret-value')!.textContent).toBe(SECRET);
    expect(byTestId(document.body, 'device-secret')!.textContent).toContain('Secret of device DEV-0001:');
    expect(byTestId(document.body, 'device-secret-warning')!.textContent).toContain('This secret is shown only this once');
    click(byTestId(document.body, 'device-secret-copy'));
    await settle();
    expect(copyText).toHaveBeenCalledWith(SECRET);
  }, 30_000);

  it('shows nothing without a secret', async () => {
    mounted = render(
      <App>
        <SecretModal data={null} open onClose={() => {}} />
      </App>,
    );
    await settle();
    expect(byTestId(document.body, 'device-secret')).toBeNull();
  });
});

describe('registering a device', () => {
  it('shows the new device’s secret once: gone for good after Done', async () => {
    const created: DeviceWithSecret = {
      id: 'd1',
      deviceId: 'DEV-0001',
      name: 'Reefer logger',
      model: null,
      protocol: 'json',
      sim: null,
      firmware: null,
      orgId: 'o1',
      orgName: 'Platform',
      createdAt: '2026-03-01T00:00:00.000Z',
      lastSeenAt: null,
      asset: null,
      secret: SECRET,
    };
    let rows: DeviceRow[] = [];
    requestMock.mockImplementation(async (path: string, opts: RequestOptions = {}) => {
      if (path === API.info) return ADMIN;
      if (path === PLATFORM_API.orgTree) return [];
      if (path === DEVICE_API.devices && opts.method === 'POST') {
        const { secret: _secret, ...row } = created;
        rows = [row];
        return created;
      }
      if (path === DEVICE_API.devices) return { rows, total: rows.length, page: 1, size: 10 } satisfies Page<DeviceRow>;
      throw new Error(`unexpected call ${path}`);
    });
    setUserinfo(ADMIN);
    mounted = render(
      <MemoryRouter initialEntries={['/view/deviceManage/devices']}>
        {/* Without motion a closed dialog is gone at once (jsdom runs no CSS transitions). */}
        <ConfigProvider theme={{ token: { motion: false } }}>
          <App>
            <DevicesPage />
          </App>
        </ConfigProvider>
      </MemoryRouter>,
    );
    await settle();

    click(byTestId(mounted.container, 'device-new'));
    await settle();
    type(document.body, 'device-form_deviceId', 'bad id');
    type(document.body, 'device-form_name', 'Reefer logger');
    click(document.getElementById('device-form-submit'));
    await settle(10);
    expect(errorOf(document.body, 'device-form_deviceId')).toContain('The device id must be 4-40 letters');
    expect(requestMock.mock.calls.some(([p, o]) => p === DEVICE_API.devices && o?.method === 'POST')).toBe(false);

    type(document.body, 'device-form_deviceId', 'DEV-0001');
    click(document.getElementById('device-form-submit'));
    await settle(10);
    const post = requestMock.mock.calls.find(([p, o]) => p === DEVICE_API.devices && o?.method === 'POST')!;
    expect(post[1]!.body).toEqual({ deviceId: 'DEV-0001', name: 'Reefer logger', model: undefined, protocol: 'json', sim: undefined, firmware: undefined, orgId: undefined });
    expect(byTestId(document.body, 'device-secret-value')!.textContent).toBe(SECRET);

    click(byTestId(document.body, 'device-secret-done'));
    await settle();
    expect(byTestId(document.body, 'device-secret')).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);
    // The list shows the device, never its secret.
    expect(mounted.container.textContent).toContain('DEV-0001');
  }, 60_000);
});
